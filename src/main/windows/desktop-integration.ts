/**
 * How the app fits into each desktop: its identity for Windows notifications, what a click on
 * the tray icon does, whether it may touch the OS's start-at-login entry, its application menu,
 * and when a crashed window reloads. Pure, with table tests; index.ts and the adapters apply it.
 */

/** electron-builder.yml's appId: the Start Menu shortcut the installer makes carries it. */
export const APP_ID = 'com.cloudtray.app'

/** Windows: the COM class that activates this app for toast clicks; fixed, so it is the same in every run. */
export const TOAST_ACTIVATOR_CLSID = '{6F3C2B9E-4A1D-4E8B-9C2F-7D5A1B3E8C41}'

/**
 * Windows shows a toast only for an AppUserModelID it knows: the installer's shortcut carries
 * APP_ID; an unpackaged run (npm start) has no such shortcut, and Windows then knows the
 * executable's path. Elsewhere there is none to set.
 */
export function appUserModelId(platform: NodeJS.Platform, isPackaged: boolean, execPath: string): string | undefined {
  if (platform !== 'win32') return undefined
  return isPackaged ? APP_ID : execPath
}

/**
 * A click on the tray icon opens the window on Windows and Linux (where current Electron emits
 * `click` for a StatusNotifierItem's activation); on macOS a click opens the menu, which has
 * "Open Cloud Tray".
 */
export function trayClickOpensWindow(platform: NodeJS.Platform): boolean {
  return platform !== 'darwin'
}

/**
 * Only the installed app owns the OS's start-at-login entry: `npm start` and the e2e specs run
 * Electron's own binary, and would point the entry at it or delete the installed app's.
 */
export function managesLoginItem(isPackaged: boolean): boolean {
  return isPackaged
}

/**
 * A menu item by role (Electron fills in label, accelerator and action), a labelled submenu, or
 * one of the app's own items by `id` (index.ts gives it its action).
 */
export interface MenuTemplateItem {
  role?: string
  id?: string
  label?: string
  type?: 'separator'
  submenu?: MenuTemplateItem[]
}

/**
 * "Install Command Line Tool…" (src/main/cli-install): puts `cloud-tray` on the PATH. Only the
 * installed app has the command line inside it; on Linux its packages do this themselves.
 */
export const INSTALL_CLI_ITEM = 'install-cli'
const INSTALL_CLI_LABEL = 'Install Command Line Tool…'

/** macOS's app menu as Electron's appMenu role makes it, with the command line's item after About. */
const MAC_APP_MENU_WITH_CLI: MenuTemplateItem = {
  role: 'appMenu',
  submenu: [
    { role: 'about' },
    { type: 'separator' },
    { id: INSTALL_CLI_ITEM, label: INSTALL_CLI_LABEL },
    { type: 'separator' },
    { role: 'services' },
    { type: 'separator' },
    { role: 'hide' },
    { role: 'hideOthers' },
    { role: 'unhide' },
    { type: 'separator' },
    { role: 'quit' }
  ]
}

/**
 * Windows' installed app has no menu bar: its menu is the tray's, so the item goes there, before
 * Quit (tray-adapter.ts). Elsewhere none.
 */
export function trayShellItems(platform: NodeJS.Platform, isPackaged: boolean): { id: string; label: string }[] {
  return platform === 'win32' && isPackaged ? [{ id: INSTALL_CLI_ITEM, label: INSTALL_CLI_LABEL }] : []
}

/**
 * The application menu. Electron's default (File, Edit, View with Reload and Developer Tools,
 * Window, Help) would show in the installed app too, and Reload would leave the page's SSH
 * sessions behind. macOS needs a menu for Cmd+Q and the editing shortcuts (copy, paste in text
 * fields and the terminal); Windows and Linux have those without one, so the installed app has
 * no menu bar there. Developer builds keep Reload and the developer tools.
 */
export function applicationMenuTemplate(platform: NodeJS.Platform, isPackaged: boolean, trayShown = true): MenuTemplateItem[] | null {
  const developer: MenuTemplateItem[] = isPackaged
    ? []
    : [{ label: 'Developer', submenu: [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }] }]
  if (platform === 'darwin')
    return [isPackaged ? MAC_APP_MENU_WITH_CLI : { role: 'appMenu' }, { role: 'editMenu' }, { role: 'windowMenu' }, ...developer]
  // No tray (tray-host.ts): Quit would be nowhere, so the window gets a menu bar with it.
  const quit: MenuTemplateItem[] = trayShown ? [] : [{ label: 'File', submenu: [{ role: 'quit' }] }]
  return quit.length + developer.length > 0 ? [...quit, ...developer] : null
}

/** A crashed page reloads by itself, unless it ended normally or already crashed within this long. */
export const CRASH_RELOAD_INTERVAL_MS = 60_000

export function reloadAfterCrash(reason: string, lastAutomaticReloadAt: number | undefined, now: number): boolean {
  if (reason === 'clean-exit') return false
  return lastAutomaticReloadAt === undefined || now - lastAutomaticReloadAt >= CRASH_RELOAD_INTERVAL_MS
}
