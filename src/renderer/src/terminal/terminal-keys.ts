/**
 * The keys a terminal pane hands to its tab, as in Tabby and VS Code: split right
 * (Ctrl/⌘+Shift+D) or down (Ctrl/⌘+Alt+Shift+D), move to the pane in a direction
 * (Ctrl/⌘+Alt+Arrow), close the pane (Ctrl/⌘+Shift+W, in the desktop app: a browser keeps that
 * key for itself) and reconnect (Ctrl/⌘+Shift+R). Everything else goes to the shell.
 */
import type { Direction } from './pane-layout'

export type PaneKeyCommand =
  { kind: 'split'; direction: 'right' | 'down' } | { kind: 'focus'; direction: Direction } | { kind: 'close-pane' } | { kind: 'reconnect' }

/** How each is written in menus and hints. */
export const PANE_KEYS = {
  splitRight: 'Ctrl+Shift+D',
  splitDown: 'Ctrl+Alt+Shift+D',
  focus: 'Ctrl+Alt+Arrow',
  closePane: 'Ctrl+Shift+W',
  reconnect: 'Ctrl+Shift+R'
} as const

const ARROWS: Record<string, Direction> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' }

type KeyLike = Pick<KeyboardEvent, 'type' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'code' | 'key'>

export function paneKeyCommand(event: KeyLike): PaneKeyCommand | undefined {
  if (event.type !== 'keydown' || !(event.ctrlKey || event.metaKey)) return undefined
  if (event.shiftKey && event.code === 'KeyD') return { kind: 'split', direction: event.altKey ? 'down' : 'right' }
  if (event.altKey && !event.shiftKey && ARROWS[event.key]) return { kind: 'focus', direction: ARROWS[event.key]! }
  if (event.shiftKey && !event.altKey && event.code === 'KeyW') return { kind: 'close-pane' }
  if (event.shiftKey && !event.altKey && event.code === 'KeyR') return { kind: 'reconnect' }
  return undefined
}
