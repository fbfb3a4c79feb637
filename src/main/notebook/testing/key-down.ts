/** A key pressed in a notebook page, as Electron's `before-input-event` gives it: no modifier unless named. */
import type { ZoomKeyInput } from '../zoom-keys'

export function keyDown(key: string, modifiers: Partial<Omit<ZoomKeyInput, 'key'>> = {}): ZoomKeyInput {
  return { type: 'keyDown', key, control: false, meta: false, alt: false, shift: false, ...modifiers }
}
