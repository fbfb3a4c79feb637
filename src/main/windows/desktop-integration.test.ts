import { describe, expect, it } from 'vitest'
import {
  APP_ID,
  CRASH_RELOAD_INTERVAL_MS,
  INSTALL_CLI_ITEM,
  appUserModelId,
  applicationMenuTemplate,
  managesLoginItem,
  reloadAfterCrash,
  trayClickOpensWindow,
  trayShellItems,
  type MenuTemplateItem
} from './desktop-integration'

const roles = (items: MenuTemplateItem[] | null): string[] =>
  (items ?? []).flatMap((i) => [...(i.role ? [i.role] : []), ...roles(i.submenu ?? null)])

describe('desktop integration', () => {
  it.each([
    ['win32', true, APP_ID],
    ['win32', false, 'C:\\dev\\electron.exe'],
    ['darwin', true, undefined],
    ['linux', true, undefined]
  ] as const)('AppUserModelID on %s, packaged %s: %s', (platform, packaged, id) => {
    expect(appUserModelId(platform, packaged, 'C:\\dev\\electron.exe')).toBe(id)
  })

  it.each([
    ['win32', true],
    ['linux', true],
    ['darwin', false]
  ] as const)('a tray click on %s opens the window: %s', (platform, opens) => {
    expect(trayClickOpensWindow(platform)).toBe(opens)
  })

  it('only a packaged app touches the start-at-login entry', () => {
    expect([managesLoginItem(true), managesLoginItem(false)]).toEqual([true, false])
  })

  it.each(['darwin', 'win32', 'linux'] as const)('the installed app on %s has no Reload and no developer tools', (platform) => {
    for (const role of ['reload', 'forceReload', 'toggleDevTools', 'viewMenu'])
      expect(roles(applicationMenuTemplate(platform, true))).not.toContain(role)
  })

  it('macOS keeps the app menu (Quit) and the editing roles (copy, paste), with Install Command Line Tool in the installed app', () => {
    const menu = applicationMenuTemplate('darwin', true)!
    expect(roles(menu)).toEqual(['appMenu', 'about', 'services', 'hide', 'hideOthers', 'unhide', 'quit', 'editMenu', 'windowMenu'])
    expect(menu[0]!.submenu).toContainEqual({ id: INSTALL_CLI_ITEM, label: 'Install Command Line Tool…' })
  })

  it('puts Install Command Line Tool in the tray menu on Windows, whose installed app has no menu bar', () => {
    expect(trayShellItems('win32', true)).toEqual([{ id: INSTALL_CLI_ITEM, label: 'Install Command Line Tool…' }])
    expect(trayShellItems('win32', false)).toEqual([])
    expect(trayShellItems('linux', true)).toEqual([])
    expect(trayShellItems('darwin', true)).toEqual([])
  })

  it('a Linux desktop without tray icons gives the window File → Quit (nothing else would quit)', () => {
    expect(roles(applicationMenuTemplate('linux', true, false))).toEqual(['quit'])
    expect(roles(applicationMenuTemplate('linux', false, false))).toEqual(['quit', 'reload', 'forceReload', 'toggleDevTools'])
  })

  it('Windows and Linux installed apps have no menu bar; developer builds get Reload and the tools', () => {
    expect(applicationMenuTemplate('win32', true)).toBeNull()
    expect(applicationMenuTemplate('linux', true)).toBeNull()
    expect(roles(applicationMenuTemplate('linux', false))).toEqual(['reload', 'forceReload', 'toggleDevTools'])
    expect(roles(applicationMenuTemplate('darwin', false))).toEqual([
      'appMenu',
      'editMenu',
      'windowMenu',
      'reload',
      'forceReload',
      'toggleDevTools'
    ])
  })

  it.each([
    ['crashed', undefined, true],
    ['oom', 0, false],
    ['killed', 1_000, false],
    ['crashed', 10_000 - CRASH_RELOAD_INTERVAL_MS, true],
    ['clean-exit', undefined, false]
  ] as const)('reload after %s (last automatic reload at %s): %s', (reason, last, reload) => {
    expect(reloadAfterCrash(reason, last, 10_000)).toBe(reload)
  })
})
