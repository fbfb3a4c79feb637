/**
 * `app`: ready, paths, login items, and quitting as Electron's Browser does it
 * (shell/browser/browser.cc): `quit()` emits `before-quit` (cancellable), then asks every window
 * to close; a close that is cancelled — by a `close` listener or by a page refusing to unload —
 * cancels the quit, silently. Once the last window is gone `will-quit` follows (cancellable;
 * cancelling it ends the quit), then `quit`, and the process exits. `exit()` destroys the windows
 * and ends without asking anyone.
 */
import { EventEmitter } from 'node:events'
import { homedir, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { exitProcess, options, record } from './channel'
import { StandInMenu } from './menu'
import { StandInBrowserWindow, StandInEvent, emitEvent, windowEvents } from './windows'

/**
 * `app.commandLine`: the switches Chromium starts with. The app's own launch arguments are read
 * as Electron reads them (`--name` or `--name=value`); what the app appends is recorded, with
 * whether the app was ready by then (Chromium reads its features before ready: later is too late).
 */
class StandInCommandLine {
  private readonly switches = new Map<string, string>()

  constructor(private readonly isReady: () => boolean) {
    for (const arg of process.argv.slice(2)) {
      const match = /^--([^=]+)(?:=(.*))?$/.exec(arg)
      if (match) this.switches.set(match[1]!, match[2] ?? '')
    }
  }

  appendSwitch(name: string, value?: string): void {
    record('app.commandLine.appendSwitch', 'app', [name, ...(value === undefined ? [] : [value]), { afterReady: this.isReady() }])
    this.switches.set(name, value ?? '')
  }
  hasSwitch(name: string): boolean {
    return this.switches.has(name)
  }
  getSwitchValue(name: string): string {
    return this.switches.get(name) ?? ''
  }
}

class StandInApp extends EventEmitter {
  readonly isPackaged = options.isPackaged
  readonly commandLine = new StandInCommandLine(() => this.ready)
  private ready = false
  private readonly readyPromise: Promise<void>
  private quitting = false
  private exiting = false
  private shutDown = false
  private exitCode = 0
  private loginItem = { openAtLogin: false, args: [] as string[] }

  constructor() {
    super()
    this.readyPromise = new Promise((resolve) => {
      // After the main script's first turn, as Electron's ready comes after the entry module runs.
      setImmediate(() => {
        emitEvent(this, 'app', 'will-finish-launching', new StandInEvent())
        StandInMenu.installDefaultMenu(this.isPackaged)
        this.ready = true
        emitEvent(this, 'app', 'ready', new StandInEvent(), {})
        resolve()
      })
    })
    windowEvents.on('created', (window: StandInBrowserWindow) => {
      emitEvent(this, 'app', 'browser-window-created', new StandInEvent(), window)
      emitEvent(this, 'app', 'web-contents-created', new StandInEvent(), window.webContents)
    })
    windowEvents.on('close-cancelled', () => {
      if (!this.quitting) return
      // Browser::OnWindowCloseCancelled: the quit is over; nobody is told.
      record('electron.quitCancelled', 'app', [])
      this.quitting = false
    })
    windowEvents.on('closed', () => {
      if (StandInBrowserWindow.getAllWindows().length > 0) return
      if (this.exiting) this.shutdown()
      else if (this.quitting) this.notifyAndShutdown()
      else emitEvent(this, 'app', 'window-all-closed', new StandInEvent())
    })
  }

  get name(): string {
    return 'cloud-tray'
  }
  getName(): string {
    return this.name
  }
  getVersion(): string {
    return options.version
  }
  getLocale(): string {
    return 'en-US'
  }
  isReady(): boolean {
    return this.ready
  }
  whenReady(): Promise<void> {
    return this.readyPromise
  }
  /** The app's folder (package.json's): here the built bundle's, out/electron-stand-in/<hash>/. */
  getAppPath(): string {
    return join(dirname(process.argv[1] ?? process.cwd()), '..')
  }
  getPath(name: string): string {
    if (name === 'userData' || name === 'sessionData') return options.userData
    if (name === 'home') return homedir()
    if (name === 'temp') return tmpdir()
    if (name === 'exe') return process.execPath
    throw new Error(`the electron stand-in has no path "${name}"`)
  }
  requestSingleInstanceLock(): boolean {
    record('app.requestSingleInstanceLock', 'app', [])
    return true
  }
  setToastActivatorCLSID(id: string): void {
    record('app.setToastActivatorCLSID', 'app', [id])
    if (!/^\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i.test(id)) throw new Error('Invalid CLSID')
  }
  setAppUserModelId(id: string): void {
    record('app.setAppUserModelId', 'app', [id])
  }
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void {
    record('app.setLoginItemSettings', 'app', [settings])
    this.loginItem = { openAtLogin: settings.openAtLogin, args: settings.args ?? [] }
  }
  getLoginItemSettings(): { openAtLogin: boolean; wasOpenedAtLogin: boolean; openAsHidden: boolean } {
    return { openAtLogin: this.loginItem.openAtLogin, wasOpenedAtLogin: false, openAsHidden: false }
  }
  focus(): void {
    record('app.focus', 'app', [])
  }

  quit(): void {
    record('app.quit', 'app', [])
    if (this.quitting) return
    if (emitEvent(this, 'app', 'before-quit', new StandInEvent()).defaultPrevented) return
    this.quitting = true
    const windows = StandInBrowserWindow.getAllWindows()
    if (windows.length === 0) this.notifyAndShutdown()
    else for (const window of windows) window.close()
  }

  exit(code = 0): void {
    record('app.exit', 'app', [code])
    this.exitCode = code
    this.exiting = true
    this.quitting = true
    const windows = StandInBrowserWindow.getAllWindows()
    if (windows.length === 0) this.shutdown()
    else for (const window of windows) window.destroy()
  }

  private notifyAndShutdown(): void {
    if (this.shutDown) return
    if (emitEvent(this, 'app', 'will-quit', new StandInEvent()).defaultPrevented) {
      this.quitting = false
      return
    }
    this.shutdown()
  }

  private shutdown(): void {
    if (this.shutDown) return
    this.shutDown = true
    this.quitting = true
    emitEvent(this, 'app', 'quit', new StandInEvent(), this.exitCode)
    exitProcess(this.exitCode)
  }
}

export const app = new StandInApp()
