/**
 * What the harness (harness.ts, in the test process) and the stand-in (runtime/, inside the app's
 * process) say to each other over the child-process channel. The stand-in streams every call the
 * app makes to the `electron` module (and to the keychain stand-in) as a RecordedCall; the harness
 * sends requests that play the user or the OS (click a tray item, close a window, answer a
 * dialog) and gets one reply per request.
 */

/** How the app's process is set up; passed in the ELECTRON_STAND_IN environment variable. */
export interface StandInOptions {
  /** `app.getPath('userData')`. */
  userData: string
  /** `app.getVersion()`. */
  version: string
  /** `app.isPackaged`: a packaged build (true) or `npm start` / the e2e specs (false). */
  isPackaged: boolean
  /**
   * The OS keychain (@napi-rs/keyring) stand-in: `memory` keeps entries in the process;
   * `never-answers` never settles a call, like a locked keyring whose unlock prompt nobody answers;
   * `no-secret-service` a Linux desktop without one; `module-missing` no native binary for this system.
   */
  keychain: 'memory' | 'never-answers' | 'no-secret-service' | 'module-missing'
  /**
   * node-pty's `spawn` throws as node-pty 1.1 does on macOS when its prebuilt `spawn-helper` lost
   * its execute bit (microsoft/node-pty#850). Absent: the real node-pty.
   */
  ptySpawnFails?: boolean
  /**
   * The Electron fuses of the binary, by FuseV1Options name: a packaged run carries what
   * scripts/after-pack-fuses.cjs flips; absent, Electron's defaults.
   */
  fuses?: Record<string, boolean>
  /** `process.resourcesPath`: the installed app's resources folder (app-update.yml, package-type). */
  resourcesPath: string
}

export const OPTIONS_VARIABLE = 'ELECTRON_STAND_IN'

/** One call the app made (or one event the stand-in emitted to it, `api` starting with `event:`). */
export interface RecordedCall {
  seq: number
  /** ms since the app's process started. */
  at: number
  /** e.g. `BrowserWindow.show`, `session.cookies.set`, `event:before-quit`. */
  api: string
  /** Which object: `window#2`, `webContents#2`, `session:persist:notebook-sandbox`, `tray#1`. */
  target?: string
  args: unknown[]
}

export interface Request {
  type: 'request'
  id: number
  op: string
  args: unknown[]
}

export type FromApp =
  | { type: 'call'; call: RecordedCall }
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: string }

/** A window as the harness sees it. */
export interface WindowView {
  id: number
  webContentsId: number
  title: string
  url: string
  visible: boolean
  minimized: boolean
  /** The session partition of its webContents ('' for the default session). */
  partition: string
  /** Set for a window a page opened (window.open): the opener's webContents id. */
  openerWebContentsId?: number
  /** Whether the page has a beforeunload handler that refuses to unload (harness-set). */
  refusesUnload: boolean
  /** The HTTP status of the last page load, when it was fetched (https/http pages). */
  status?: number
}

/** A cookie as Electron's `cookies.get` describes it. */
export interface CookieView {
  partition: string
  name: string
  value: string
  domain: string
  hostOnly: boolean
  path: string
  secure: boolean
  httpOnly: boolean
  session: boolean
  sameSite: string
}

/** A message box waiting for the harness to answer it. */
export interface DialogView {
  id: number
  api: 'dialog.showMessageBox'
  /** The window it is attached to, if any. */
  windowId?: number
  message: string
  detail?: string
  buttons: string[]
  defaultId?: number
  cancelId?: number
}

/** A menu item as recorded: what the user would see, roles expanded as Electron expands them. */
export interface MenuItemView {
  label?: string
  role?: string
  type?: string
  enabled: boolean
  accelerator?: string
  submenu?: MenuItemView[]
}
