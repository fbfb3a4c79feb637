import { describe, expect, it } from 'vitest'
import { MenuWhileOpen, menuLabel } from './menu-text'

describe('tray menu text', () => {
  it('an & in an instance name is shown, not taken as a mnemonic (Windows and Linux)', () => {
    expect(menuLabel('R&D run', 'win32')).toBe('R&&D run')
    expect(menuLabel('a && b', 'linux')).toBe('a &&&& b')
    expect(menuLabel('R&D run', 'darwin')).toBe('R&D run')
  })

  it('a menu is not replaced while open; the latest is applied when it closes', () => {
    const applied: string[] = []
    const menus = new MenuWhileOpen<string>((menu) => applied.push(menu))
    menus.set('a')
    menus.opened()
    menus.set('b')
    menus.set('c')
    expect(applied).toEqual(['a'])
    menus.closed()
    expect(applied).toEqual(['a', 'c'])
    menus.closed()
    expect(applied).toEqual(['a', 'c'])
  })
})
