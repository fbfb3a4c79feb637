/**
 * BrowserWindow and its webContents, with the life cycle that decides close and quit in Electron
 * (shell/browser/native_window.cc, api_browser_window.cc):
 * - `close()` emits `close`; a listener's preventDefault cancels it. Then the page's
 *   `beforeunload` runs: a page that refuses to unload (the harness marks it, as JupyterLab
 *   does with unsaved work) makes Electron emit `will-prevent-unload` on the webContents; unless
 *   a listener calls preventDefault there, the close is cancelled. A cancelled close during a
 *   quit cancels the quit.
 * - `destroy()` closes at once: no `close`, no beforeunload.
 * - A page-initiated navigation emits `will-navigate` (cancellable), then beforeunload, then
 *   `did-start-navigation` … `did-finish-load`. A page's `window.open` asks the handler given to
 *   `setWindowOpenHandler`; an allowed pop-up becomes a new window and the opener emits
 *   `did-create-window`.
 */
import { EventEmitter } from 'node:events'
import { pathToFileURL } from 'node:url'
import type { WindowView } from '../protocol'
import { record, type Recordable } from './channel'
import { StandInSession, loadError } from './session'
import type { StandInMenu } from './menu'

export class StandInEvent {
  defaultPrevented = false
  constructor(extra: Record<string, unknown> = {}) {
    Object.assign(this, extra)
  }
  preventDefault(): void {
    this.defaultPrevented = true
  }
}

/** Emits like Electron (event object first) and records the emission and whether it was prevented. */
export function emitEvent(emitter: EventEmitter, target: string, name: string, event: StandInEvent, ...rest: unknown[]): StandInEvent {
  record(`event:${name}`, target, rest)
  emitter.emit(name, event, ...rest)
  if (event.defaultPrevented) record(`event:${name}:prevented`, target, [])
  return event
}

/** What the windows tell the app object (app.ts): a close was cancelled, a window is gone. */
export const windowEvents = new EventEmitter()

type OpenHandler = (details: {
  url: string
  frameName: string
  features: string
  disposition: string
  referrer: { url: string; policy: string }
}) => {
  action: 'allow' | 'deny'
  overrideBrowserWindowOptions?: Record<string, unknown>
  outlivesOpener?: boolean
}

export class StandInWebContents extends EventEmitter implements Recordable {
  static nextId = 1
  static readonly all = new Map<number, StandInWebContents>()
  readonly id = StandInWebContents.nextId++
  readonly label = `webContents#${this.id}`
  url = ''
  status: number | undefined
  /** The current document's Content-Security-Policies (header and meta), as loaded. */
  policies: string[] = []
  destroyed = false
  loading = false
  /** Set by the harness: the page has a beforeunload handler that refuses to unload. */
  refusesUnload = false
  openHandler: OpenHandler | undefined
  openerId: number | undefined
  /** The page's zoom factor; Electron clamps what it is given to what Chromium can show (25 % to 500 %). */
  zoomFactor = 1
  /** Only what the app uses of Electron's NavigationHistory. */
  readonly navigationHistory = {
    clear: (): void => record('webContents.navigationHistory.clear', this.label, [])
  }
  readonly mainFrame: { readonly url: string; readonly parent: null; readonly routingId: number; readonly processId: number }

  constructor(
    readonly session: StandInSession,
    readonly owner: StandInBrowserWindow
  ) {
    super()
    StandInWebContents.all.set(this.id, this)
    // The frame's getters run with the frame as `this`; they read the contents that own it.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const contents = this
    this.mainFrame = {
      get url() {
        return contents.url
      },
      parent: null,
      routingId: 1,
      processId: this.id + 100
    }
  }

  recordAs(): unknown {
    return this.label
  }

  send(channel: string, ...args: unknown[]): void {
    record('webContents.send', this.label, [channel, ...args])
  }
  setWindowOpenHandler(handler: OpenHandler): void {
    record('webContents.setWindowOpenHandler', this.label, [handler])
    this.openHandler = handler
  }
  getURL(): string {
    return this.url
  }
  getTitle(): string {
    return this.owner.title
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  isLoading(): boolean {
    return this.loading
  }
  isCrashed(): boolean {
    return false
  }
  focus(): void {
    record('webContents.focus', this.label, [])
  }
  getZoomFactor(): number {
    return this.zoomFactor
  }
  setZoomFactor(factor: number): void {
    record('webContents.setZoomFactor', this.label, [factor])
    if (!(factor > 0)) throw new Error("'zoomFactor' must be a double greater than 0.0")
    this.zoomFactor = Math.min(5, Math.max(0.25, factor))
  }
  /** The user presses a key in the page: `before-input-event` first; a listener's preventDefault keeps it from the page. */
  pressKey(input: Record<string, unknown>): { prevented: boolean; zoomFactor: number } {
    const full = { code: '', isAutoRepeat: false, isComposing: false, location: 0, modifiers: [], ...input }
    const event = emitEvent(this, this.label, 'before-input-event', new StandInEvent(), full)
    return { prevented: event.defaultPrevented, zoomFactor: this.zoomFactor }
  }
  reload(): void {
    record('webContents.reload', this.label, [])
    void this.navigate(this.url, 'reload').catch(() => undefined)
  }
  openDevTools(): void {
    record('webContents.openDevTools', this.label, [])
  }
  async executeJavaScript(code: string): Promise<unknown> {
    record('webContents.executeJavaScript', this.label, [code])
    return undefined
  }
  async loadURL(url: string): Promise<void> {
    record('webContents.loadURL', this.label, [url])
    await this.navigate(url, 'app')
  }

  /**
   * A main-frame navigation. `page`: the page went there (a link, location.href); `reload`: a
   * reload; `app`: loadURL/loadFile from main (no will-navigate, as in Electron).
   */
  async navigate(url: string, by: 'page' | 'reload' | 'app'): Promise<'navigated' | 'prevented' | 'kept-by-page'> {
    if (this.destroyed) throw new Error('Object has been destroyed')
    if (by === 'page') {
      const event = emitEvent(
        this,
        this.label,
        'will-navigate',
        new StandInEvent({ url, isMainFrame: true, isSameDocument: false, frame: this.mainFrame }),
        url,
        false,
        true
      )
      if (event.defaultPrevented) return 'prevented'
    }
    if (this.url && this.refusesUnload) {
      const unload = emitEvent(this, this.label, 'will-prevent-unload', new StandInEvent())
      if (!unload.defaultPrevented) {
        if (by === 'app') throw loadError('ERR_ABORTED', -3, url)
        return 'kept-by-page'
      }
    }
    this.loading = true
    emitEvent(this, this.label, 'did-start-loading', new StandInEvent())
    emitEvent(
      this,
      this.label,
      'did-start-navigation',
      new StandInEvent({ url, isMainFrame: true, isSameDocument: false, frame: this.mainFrame }),
      url,
      false,
      true
    )
    let loaded: Awaited<ReturnType<StandInSession['load']>>
    try {
      loaded = await this.session.load(url)
    } catch (error) {
      this.loading = false
      const { code = 'ERR_FAILED', errno = -2 } = error as { code?: string; errno?: number }
      emitEvent(this, this.label, 'did-fail-load', new StandInEvent(), errno, code, url, true)
      throw error
    }
    if (this.destroyed) throw loadError('ERR_ABORTED', -3, url)
    const { status, policies } = loaded
    this.url = url
    this.status = status
    this.policies = policies
    this.refusesUnload = false // a new document: its own beforeunload, if any, is set by the harness again
    this.loading = false
    emitEvent(this, this.label, 'did-navigate', new StandInEvent(), url, status ?? 200, 'OK')
    emitEvent(this, this.label, 'dom-ready', new StandInEvent())
    emitEvent(this, this.label, 'did-finish-load', new StandInEvent())
    this.owner.pageReady()
    return 'navigated'
  }

  /** The page calls window.open(url). */
  openWindow(url: string): { action: 'allow' | 'deny'; windowId?: number } {
    const details = {
      url,
      frameName: '',
      features: '',
      disposition: 'new-window',
      referrer: { url: this.url, policy: 'strict-origin-when-cross-origin' }
    }
    // Without a handler Electron allows every pop-up, with default preferences.
    const answer = this.openHandler ? this.openHandler(details) : { action: 'allow' as const }
    record('webContents.windowOpenHandler.answer', this.label, [url, answer])
    if (answer.action !== 'allow') return { action: 'deny' }
    const options = answer.overrideBrowserWindowOptions ?? {}
    const prefs = (options['webPreferences'] ?? {}) as { session?: StandInSession }
    const child = new StandInBrowserWindow({ ...options, show: true, webPreferences: { ...prefs, session: prefs.session ?? this.session } })
    child.webContents.openerId = this.id
    // Electron destroys a pop-up with its opener unless it outlives it (lib/browser/guest-window-manager.ts).
    if (!answer.outlivesOpener) this.once('destroyed', () => child.destroy())
    // Emitted from Electron's JS side without an event object: (window, details).
    record('event:did-create-window', this.label, [child])
    this.emit('did-create-window', child, { url, frameName: '', options, disposition: 'new-window' })
    void child.webContents.navigate(url, 'app').catch(() => undefined)
    return { action: 'allow', windowId: child.id }
  }

  /** The renderer process ended (crash, OOM kill): the webContents stays, its page is gone. */
  processGone(reason: string): void {
    emitEvent(this, this.label, 'render-process-gone', new StandInEvent(), { reason, exitCode: reason === 'crashed' ? 139 : 9 })
  }

  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    emitEvent(this, this.label, 'destroyed', new StandInEvent())
    StandInWebContents.all.delete(this.id)
  }
}

interface WindowOptions {
  show?: boolean
  title?: string
  webPreferences?: { session?: StandInSession; partition?: string; preload?: string }
  [key: string]: unknown
}

export class StandInBrowserWindow extends EventEmitter implements Recordable {
  static nextId = 1
  static list: StandInBrowserWindow[] = []
  readonly id = StandInBrowserWindow.nextId++
  readonly label = `window#${this.id}`
  readonly webContents: StandInWebContents
  title: string
  visible: boolean
  minimized = false
  destroyed = false
  private shownOnce = false

  constructor(readonly options: WindowOptions = {}) {
    super()
    const prefs = options.webPreferences ?? {}
    const ses = prefs.session ?? StandInSession.of(prefs.partition ?? '')
    this.webContents = new StandInWebContents(ses, this)
    this.title = options.title ?? 'Electron'
    this.visible = options.show !== false
    record('BrowserWindow.new', this.label, [{ ...options, webContentsId: this.webContents.id }])
    StandInBrowserWindow.list.push(this)
    windowEvents.emit('created', this)
  }

  static getAllWindows(): StandInBrowserWindow[] {
    return StandInBrowserWindow.list.filter((w) => !w.destroyed)
  }
  static fromWebContents(contents: StandInWebContents): StandInBrowserWindow | null {
    return contents.owner.destroyed ? null : contents.owner
  }
  static fromId(id: number): StandInBrowserWindow | null {
    return StandInBrowserWindow.list.find((w) => w.id === id && !w.destroyed) ?? null
  }
  static getFocusedWindow(): StandInBrowserWindow | null {
    return null
  }

  recordAs(): unknown {
    return this.label
  }

  view(): WindowView {
    return {
      id: this.id,
      webContentsId: this.webContents.id,
      title: this.title,
      url: this.webContents.url,
      visible: this.visible,
      minimized: this.minimized,
      partition: this.webContents.session.partition,
      refusesUnload: this.webContents.refusesUnload,
      ...(this.webContents.openerId !== undefined ? { openerWebContentsId: this.webContents.openerId } : {}),
      ...(this.webContents.status !== undefined ? { status: this.webContents.status } : {})
    }
  }

  async loadURL(url: string): Promise<void> {
    record('BrowserWindow.loadURL', this.label, [url])
    await this.webContents.navigate(url, 'app')
  }
  async loadFile(path: string): Promise<void> {
    record('BrowserWindow.loadFile', this.label, [path])
    await this.webContents.navigate(pathToFileURL(path).href, 'app')
  }
  /** The first page is painted: `ready-to-show`, once. */
  pageReady(): void {
    if (this.shownOnce) return
    this.shownOnce = true
    emitEvent(this, this.label, 'ready-to-show', new StandInEvent())
  }

  show(): void {
    record('BrowserWindow.show', this.label, [])
    this.assertAlive()
    this.visible = true
    this.minimized = false
  }
  hide(): void {
    record('BrowserWindow.hide', this.label, [])
    this.assertAlive()
    this.visible = false
  }
  focus(): void {
    record('BrowserWindow.focus', this.label, [])
  }
  restore(): void {
    record('BrowserWindow.restore', this.label, [])
    this.minimized = false
  }
  minimize(): void {
    record('BrowserWindow.minimize', this.label, [])
    this.minimized = true
  }
  isVisible(): boolean {
    return this.visible
  }
  isMinimized(): boolean {
    return this.minimized
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  isFocused(): boolean {
    return false
  }
  getTitle(): string {
    return this.title
  }
  setTitle(title: string): void {
    record('BrowserWindow.setTitle', this.label, [title])
    this.title = title
  }
  setMenu(menu: StandInMenu | null): void {
    record('BrowserWindow.setMenu', this.label, [menu])
  }
  removeMenu(): void {
    record('BrowserWindow.removeMenu', this.label, [])
  }
  setMenuBarVisibility(visible: boolean): void {
    record('BrowserWindow.setMenuBarVisibility', this.label, [visible])
  }

  /** Asks the window to close, as its close button or window.close() does. */
  close(): void {
    record('BrowserWindow.close', this.label, [])
    if (this.destroyed) return
    if (emitEvent(this, this.label, 'close', new StandInEvent()).defaultPrevented) {
      windowEvents.emit('close-cancelled', this)
      return
    }
    // The page's beforeunload runs in its renderer: the answer comes back later.
    setImmediate(() => {
      if (this.destroyed) return
      if (this.webContents.refusesUnload) {
        const unload = emitEvent(this.webContents, this.webContents.label, 'will-prevent-unload', new StandInEvent())
        if (!unload.defaultPrevented) {
          record('electron.closeCancelledByPage', this.label, [])
          windowEvents.emit('close-cancelled', this)
          return
        }
      }
      this.finish()
    })
  }

  /** Closes at once, skipping `close` and beforeunload. */
  destroy(): void {
    record('BrowserWindow.destroy', this.label, [])
    if (!this.destroyed) this.finish()
  }

  private finish(): void {
    this.destroyed = true
    this.visible = false
    emitEvent(this, this.label, 'closed', new StandInEvent())
    this.webContents.destroy()
    windowEvents.emit('closed', this)
  }

  private assertAlive(): void {
    if (this.destroyed) throw new TypeError('Object has been destroyed')
  }
}
