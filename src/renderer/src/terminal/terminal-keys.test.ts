/** The keys a pane hands to its tab (split, move, close, reconnect); everything else goes to the shell. */
import { describe, expect, it } from 'vitest'
import { paneKeyCommand } from './terminal-keys'

const key = (code: string, mods: { ctrl?: boolean; meta?: boolean; alt?: boolean; shift?: boolean } = {}, keyName = code) => ({
  type: 'keydown',
  code,
  key: keyName,
  ctrlKey: mods.ctrl === true,
  metaKey: mods.meta === true,
  altKey: mods.alt === true,
  shiftKey: mods.shift === true
})

describe('pane keys', () => {
  it('split right, split down, close the pane and reconnect, with Ctrl or ⌘', () => {
    expect(paneKeyCommand(key('KeyD', { ctrl: true, shift: true }))).toEqual({ kind: 'split', direction: 'right' })
    expect(paneKeyCommand(key('KeyD', { meta: true, shift: true }))).toEqual({ kind: 'split', direction: 'right' })
    expect(paneKeyCommand(key('KeyD', { ctrl: true, alt: true, shift: true }))).toEqual({ kind: 'split', direction: 'down' })
    expect(paneKeyCommand(key('KeyW', { ctrl: true, shift: true }))).toEqual({ kind: 'close-pane' })
    expect(paneKeyCommand(key('KeyR', { ctrl: true, shift: true }))).toEqual({ kind: 'reconnect' })
  })

  it('moves the focus with Ctrl+Alt+Arrow', () => {
    expect(paneKeyCommand(key('ArrowLeft', { ctrl: true, alt: true }))).toEqual({ kind: 'focus', direction: 'left' })
    expect(paneKeyCommand(key('ArrowDown', { ctrl: true, alt: true }))).toEqual({ kind: 'focus', direction: 'down' })
  })

  it('leaves the shell its own keys: Ctrl+D, Ctrl+R, Ctrl+W, arrows, and key-ups', () => {
    expect(paneKeyCommand(key('KeyD', { ctrl: true }))).toBeUndefined()
    expect(paneKeyCommand(key('KeyR', { ctrl: true }))).toBeUndefined()
    expect(paneKeyCommand(key('KeyW', { ctrl: true }))).toBeUndefined()
    expect(paneKeyCommand(key('ArrowLeft', { ctrl: true }))).toBeUndefined()
    expect(paneKeyCommand({ ...key('KeyD', { ctrl: true, shift: true }), type: 'keyup' })).toBeUndefined()
  })
})
