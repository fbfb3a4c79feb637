/**
 * The `electron` module as the app's main process sees it, under the harness: a recording
 * stand-in (in the manner of Electron Fiddle's hand-written doubles), NOT Electron. Every call the
 * app makes is recorded and streamed to the harness; the harness plays the user and the OS through
 * the operations registered at the bottom (click a tray item, close a window, answer a dialog,
 * make a page refuse to unload, open a pop-up or get a key press). A part of Electron the
 * stand-in does not model throws when touched, so a new use shows up as a failure instead of
 * passing unseen.
 */
import { EventEmitter } from 'node:events'
import { readFile } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { fileURLToPath } from 'node:url'
import type { CookieView, DialogView } from '../protocol'
import { operation, options, record, type Recordable } from './channel'
import { app } from './app'
import { StandInMenu, StandInMenuItem } from './menu'
import { fetchVerdict } from './page-policy'
import { StandInSession, type ProtocolHandler } from './session'
import { StandInBrowserWindow, StandInEvent, StandInWebContents, emitEvent } from './windows'

// ------------------------------------------------------------------ small modules

class StandInImage implements Recordable {
  private representations = 0
  private template = false
  constructor(private readonly source: string) {}
  static createFromBuffer(buffer: Uint8Array): StandInImage {
    return new StandInImage(`buffer(${buffer.byteLength} bytes)`)
  }
  static createEmpty(): StandInImage {
    return new StandInImage('empty')
  }
  static createFromPath(path: string): StandInImage {
    return new StandInImage(`path(${path})`)
  }
  addRepresentation(_options: { scaleFactor: number; buffer: Uint8Array }): void {
    this.representations++
  }
  setTemplateImage(template: boolean): void {
    this.template = template
  }
  isEmpty(): boolean {
    return this.source === 'empty' && this.representations === 0
  }
  recordAs(): unknown {
    return `NativeImage(${this.source}${this.representations ? `, ${this.representations} representations` : ''}${this.template ? ', template' : ''})`
  }
}

const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>()
const ipcListeners = new EventEmitter()
const ipcMain = {
  handle(channel: string, handler: (event: unknown, ...args: unknown[]) => unknown): void {
    record('ipcMain.handle', undefined, [channel])
    if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    handlers.set(channel, handler)
  },
  removeHandler(channel: string): void {
    record('ipcMain.removeHandler', undefined, [channel])
    handlers.delete(channel)
  },
  on(channel: string, listener: (...args: unknown[]) => void) {
    record('ipcMain.on', undefined, [channel])
    ipcListeners.on(channel, listener)
    return ipcMain
  }
}

/** As Electron 45's types have it: the clipboard answers asynchronously. */
let clipboardText = ''
const clipboard = {
  async readText(): Promise<string> {
    record('clipboard.readText', undefined, [])
    return clipboardText
  },
  async writeText(text: string): Promise<void> {
    record('clipboard.writeText', undefined, [text])
    clipboardText = text
  }
}

const shell = {
  async openExternal(url: string, options?: unknown): Promise<void> {
    record('shell.openExternal', undefined, [url, options])
  },
  async openPath(path: string): Promise<string> {
    record('shell.openPath', undefined, [path])
    return ''
  },
  showItemInFolder(path: string): void {
    record('shell.showItemInFolder', undefined, [path])
  }
}

/**
 * `net.request` (Electron 45's ClientRequest), modelled on Node's http(s): `response` with an
 * IncomingMessage (statusCode, headers, data/end), `error`, and with `redirect: 'manual'` a
 * `redirect` event instead of following. Chromium's session proxy is not modelled (requests go
 * direct), nor are `login` prompts. electron-updater downloads its feed and files this way.
 */
class StandInClientRequest extends EventEmitter {
  private readonly inner: ReturnType<typeof httpRequest>
  constructor(options: {
    url?: string
    protocol?: string
    hostname?: string
    host?: string
    port?: number | string
    path?: string
    method?: string
    headers?: Record<string, string>
    redirect?: string
  }) {
    super()
    const url = options.url
      ? new URL(options.url)
      : new URL(
          `${options.protocol ?? 'http:'}//${options.hostname ?? options.host}${options.port ? `:${options.port}` : ''}${options.path ?? '/'}`
        )
    record('net.request', undefined, [{ url: url.href, method: options.method ?? 'GET' }])
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    this.inner = send(url, { method: options.method ?? 'GET', headers: options.headers ?? {} })
    this.inner.on('response', (response) => {
      const status = response.statusCode ?? 0
      const location = response.headers.location
      if (options.redirect === 'manual' && status >= 300 && status < 400 && location) {
        response.resume()
        this.emit('redirect', status, options.method ?? 'GET', new URL(location, url).href, response.headers)
        return
      }
      this.emit('response', response)
    })
    this.inner.on('error', (error) => this.emit('error', error))
  }
  setHeader(name: string, value: string): void {
    this.inner.setHeader(name, value)
  }
  write(chunk: string | Uint8Array): void {
    this.inner.write(chunk)
  }
  end(chunk?: string | Uint8Array): this {
    this.inner.end(chunk)
    return this
  }
  abort(): void {
    this.inner.destroy()
    this.emit('abort')
  }
  followRedirect(): void {
    throw new Error('The electron stand-in does not model ClientRequest.followRedirect: add it before using it.')
  }
}

const net = {
  isOnline: (): boolean => true,
  get online(): boolean {
    return true
  },
  request: (options: ConstructorParameters<typeof StandInClientRequest>[0] | string): StandInClientRequest =>
    new StandInClientRequest(typeof options === 'string' ? { url: options } : options)
}

/**
 * `autoUpdater` as Linux has it: an EventEmitter without an update mechanism (Squirrel is macOS
 * and Windows only). electron-updater emits `before-quit-for-update` on it before it quits to
 * install; anything else throws, as the stand-in does not model Squirrel.
 */
const autoUpdaterEvents = new EventEmitter()
const autoUpdater = new Proxy(autoUpdaterEvents, {
  get(target, property, receiver) {
    if (['emit', 'on', 'once', 'removeListener', 'listenerCount'].includes(String(property))) {
      const value = Reflect.get(target, property, receiver) as (...args: unknown[]) => unknown
      return (...args: unknown[]) => {
        if (property === 'emit') record('autoUpdater.emit', undefined, args)
        return value.apply(target, args)
      }
    }
    throw new Error(`The electron stand-in does not model autoUpdater.${String(property)} (Squirrel): add it before using it.`)
  }
})

const powerMonitor = new EventEmitter()

/**
 * `powerSaveBlocker` (Electron 45): `start` answers a new id per call and holds until `stop(id)`;
 * an unknown type throws, as Electron's does. The harness reads what is held (`powerBlockers`).
 */
const heldBlockers = new Map<number, string>()
let nextBlocker = 0
const powerSaveBlocker = {
  start(type: string): number {
    if (type !== 'prevent-app-suspension' && type !== 'prevent-display-sleep')
      throw new TypeError(`Invalid power save blocker type: ${type}`)
    const id = nextBlocker++
    heldBlockers.set(id, type)
    record('powerSaveBlocker.start', undefined, [type, id])
    return id
  },
  stop(id: number): boolean {
    record('powerSaveBlocker.stop', undefined, [id])
    return heldBlockers.delete(id)
  },
  isStarted(id: number): boolean {
    return heldBlockers.has(id)
  }
}

/**
 * `nativeTheme` (Electron 45): setting `themeSource` is recorded; a value other than system,
 * light or dark throws, as Electron's does. `shouldUseDarkColors` follows it (the OS is light).
 */
let themeSource = 'system'
const nativeTheme = Object.defineProperties(new EventEmitter(), {
  themeSource: {
    enumerable: true,
    get: () => themeSource,
    set(value: string) {
      record('nativeTheme.themeSource', undefined, [value])
      if (!['system', 'light', 'dark'].includes(value)) throw new TypeError(`Invalid themeSource: ${value}`)
      themeSource = value
    }
  },
  shouldUseDarkColors: { enumerable: true, get: () => themeSource === 'dark' }
})

// ------------------------------------------------------------------ tray and notifications

class StandInTray extends EventEmitter implements Recordable {
  static nextId = 1
  static readonly all: StandInTray[] = []
  readonly label = `tray#${StandInTray.nextId++}`
  menu: StandInMenu | null = null
  tooltip = ''
  destroyed = false
  constructor(image: StandInImage) {
    super()
    record('Tray.new', this.label, [image])
    StandInTray.all.push(this)
  }
  recordAs(): unknown {
    return this.label
  }
  setImage(image: StandInImage): void {
    record('Tray.setImage', this.label, [image])
  }
  setToolTip(tooltip: string): void {
    record('Tray.setToolTip', this.label, [tooltip])
    this.tooltip = tooltip
  }
  setTitle(title: string): void {
    record('Tray.setTitle', this.label, [title])
  }
  setContextMenu(menu: StandInMenu | null): void {
    record('Tray.setContextMenu', this.label, [menu])
    this.menu = menu
  }
  setIgnoreDoubleClickEvents(ignore: boolean): void {
    record('Tray.setIgnoreDoubleClickEvents', this.label, [ignore])
  }
  popUpContextMenu(): void {
    record('Tray.popUpContextMenu', this.label, [])
  }
  destroy(): void {
    record('Tray.destroy', this.label, [])
    this.destroyed = true
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
}

class StandInNotification extends EventEmitter implements Recordable {
  static nextId = 1
  static readonly all = new Map<number, StandInNotification>()
  static isSupported(): boolean {
    return true
  }
  static activation: ((details: unknown) => void) | undefined
  /** Windows (Electron 45): one callback for every toast activation, whatever became of its object. */
  static handleActivation(callback: (details: unknown) => void): void {
    record('Notification.handleActivation', undefined, [callback])
    StandInNotification.activation = callback
  }
  readonly id = StandInNotification.nextId++
  readonly label = `notification#${this.id}`
  constructor(readonly options: { title?: string; body?: string }) {
    super()
    record('Notification.new', this.label, [options])
    StandInNotification.all.set(this.id, this)
  }
  recordAs(): unknown {
    return this.label
  }
  show(): void {
    record('Notification.show', this.label, [])
    emitEvent(this, this.label, 'show', new StandInEvent())
  }
  close(): void {
    record('Notification.close', this.label, [])
    emitEvent(this, this.label, 'close', new StandInEvent())
  }
}

// ------------------------------------------------------------------ dialogs

interface PendingDialog {
  view: DialogView
  answer(response: number): void
}
let nextDialog = 1
const pendingDialogs = new Map<number, PendingDialog>()

type MessageBoxOptions = { message: string; detail?: string; buttons?: string[]; defaultId?: number; cancelId?: number }
const messageBoxArgs = (first: unknown, second: unknown): { window?: StandInBrowserWindow; options: MessageBoxOptions } =>
  first instanceof StandInBrowserWindow ? { window: first, options: second as MessageBoxOptions } : { options: first as MessageBoxOptions }

const dialog = {
  showMessageBox(first: unknown, second?: unknown): Promise<{ response: number; checkboxChecked: boolean }> {
    const { window, options } = messageBoxArgs(first, second)
    const id = nextDialog++
    const view: DialogView = {
      id,
      api: 'dialog.showMessageBox',
      ...(window ? { windowId: window.id } : {}),
      message: options.message,
      ...(options.detail !== undefined ? { detail: options.detail } : {}),
      buttons: options.buttons ?? ['OK'],
      ...(options.defaultId !== undefined ? { defaultId: options.defaultId } : {}),
      ...(options.cancelId !== undefined ? { cancelId: options.cancelId } : {})
    }
    record('dialog.showMessageBox', window?.label, [view])
    return new Promise((resolve) => {
      pendingDialogs.set(id, { view, answer: (response) => resolve({ response, checkboxChecked: false }) })
    })
  },
  /** A synchronous box blocks main; the stand-in cannot wait for the harness, so it answers Cancel. */
  showMessageBoxSync(first: unknown, second?: unknown): number {
    const { window, options } = messageBoxArgs(first, second)
    const response = options.cancelId ?? 0
    record('dialog.showMessageBoxSync', window?.label, [{ ...options, answeredByStandIn: response }])
    return response
  },
  showErrorBox(title: string, content: string): void {
    record('dialog.showErrorBox', undefined, [title, content])
  },
  async showOpenDialog(...args: unknown[]): Promise<{ canceled: boolean; filePaths: string[] }> {
    record('dialog.showOpenDialog', undefined, args)
    return { canceled: true, filePaths: [] }
  }
}

// ------------------------------------------------------------------ protocol

type Privileges = { standard?: boolean; secure?: boolean; supportFetchAPI?: boolean; bypassCSP?: boolean; [key: string]: unknown }
/** Schemes registered with registerSchemesAsPrivileged, and their privileges. */
const privilegedSchemes = new Map<string, Privileges>()

/**
 * `protocol` (Electron 45): privileges only before `ready` (Electron throws after it); handlers
 * on the default session, only once it exists (after `ready`).
 */
const protocol = {
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges?: Privileges }[]): void {
    record('protocol.registerSchemesAsPrivileged', undefined, [schemes])
    if (app.isReady()) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready')
    for (const { scheme, privileges } of schemes) privilegedSchemes.set(scheme, privileges ?? {})
  },
  handle(scheme: string, handler: ProtocolHandler): void {
    if (!app.isReady()) throw new Error('Session can only be received when app is ready')
    StandInSession.of('').protocol.handle(scheme, handler)
  },
  unhandle(scheme: string): void {
    StandInSession.of('').protocol.unhandle(scheme)
  },
  isProtocolHandled(scheme: string): boolean {
    return StandInSession.of('').protocol.isProtocolHandled(scheme)
  }
}

// ------------------------------------------------------------------ the parts not modelled

const notModelled = (name: string): unknown =>
  new Proxy(function notModelledPart() {}, {
    get: (_target, property) => {
      if (property === Symbol.toPrimitive || property === 'then') return undefined
      throw new Error(
        `The electron stand-in does not model ${name}.${String(property)}: add it to scripts/electron-stand-in/runtime before using it.`
      )
    },
    construct: () => {
      throw new Error(`The electron stand-in does not model new ${name}(): add it to scripts/electron-stand-in/runtime before using it.`)
    },
    apply: () => {
      throw new Error(`The electron stand-in does not model ${name}(): add it to scripts/electron-stand-in/runtime before using it.`)
    }
  })

const session = {
  get defaultSession(): StandInSession {
    return StandInSession.of('')
  },
  fromPartition: (partition: string): StandInSession => StandInSession.fromPartition(partition)
}

const webContents = {
  getAllWebContents: (): StandInWebContents[] => [...StandInWebContents.all.values()],
  fromId: (id: number): StandInWebContents | undefined => StandInWebContents.all.get(id)
}

export {
  app,
  autoUpdater,
  StandInBrowserWindow as BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  StandInMenu as Menu,
  StandInMenuItem as MenuItem,
  StandInImage as nativeImage,
  nativeTheme,
  net,
  StandInNotification as Notification,
  powerMonitor,
  powerSaveBlocker,
  protocol,
  session,
  shell,
  StandInTray as Tray,
  webContents
}
export const BaseWindow = notModelled('BaseWindow')
export const BrowserView = notModelled('BrowserView')
export const contentTracing = notModelled('contentTracing')
export const crashReporter = notModelled('crashReporter')
export const desktopCapturer = notModelled('desktopCapturer')
export const globalShortcut = notModelled('globalShortcut')
export const inAppPurchase = notModelled('inAppPurchase')
export const MessageChannelMain = notModelled('MessageChannelMain')
export const netLog = notModelled('netLog')
export const pushNotifications = notModelled('pushNotifications')
export const safeStorage = notModelled('safeStorage')
export const screen = notModelled('screen')
export const ShareMenu = notModelled('ShareMenu')
export const systemPreferences = notModelled('systemPreferences')
export const TouchBar = notModelled('TouchBar')
export const utilityProcess = notModelled('utilityProcess')
export const View = notModelled('View')
export const WebContentsView = notModelled('WebContentsView')
export const webFrameMain = notModelled('webFrameMain')
export const contextBridge = notModelled('contextBridge (renderer only)')
export const ipcRenderer = notModelled('ipcRenderer (renderer only)')

export default {
  app,
  autoUpdater,
  BrowserWindow: StandInBrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu: StandInMenu,
  MenuItem: StandInMenuItem,
  nativeImage: StandInImage,
  nativeTheme,
  net,
  Notification: StandInNotification,
  powerMonitor,
  powerSaveBlocker,
  protocol,
  session,
  shell,
  Tray: StandInTray,
  webContents
}

// ------------------------------------------------------------------ what the harness can do

const windowOf = (id: number): StandInBrowserWindow => {
  const window = StandInBrowserWindow.fromId(id)
  if (!window) throw new Error(`no open window #${id}`)
  return window
}
const contentsOf = (id: number): StandInWebContents => {
  const contents = StandInWebContents.all.get(id)
  if (!contents) throw new Error(`no webContents #${id}`)
  return contents
}

/** A renderer's ipcRenderer.invoke, as the preload sends it: from that webContents' main frame. */
operation('invoke', async (webContentsId: number, channel: string, input: unknown) => {
  const contents = contentsOf(webContentsId)
  const handler = handlers.get(channel)
  if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`)
  return handler(
    { sender: contents, senderFrame: contents.destroyed ? null : contents.mainFrame, processId: contents.mainFrame.processId, frameId: 1 },
    input
  )
})
/** A renderer's ipcRenderer.send (a one-way notice), from that webContents' main frame; nothing answers. */
operation('send', (webContentsId: number, channel: string, input: unknown) => {
  const contents = contentsOf(webContentsId)
  ipcListeners.emit(
    channel,
    { sender: contents, senderFrame: contents.destroyed ? null : contents.mainFrame, processId: contents.mainFrame.processId, frameId: 1 },
    input
  )
})
operation('windows', () => StandInBrowserWindow.getAllWindows().map((w) => w.view()), 'looks')
operation('closeWindow', (id: number) => windowOf(id).close())
operation('pageRefusesUnload', (webContentsId: number, refuses: boolean) => {
  contentsOf(webContentsId).refusesUnload = refuses
})
operation('pageOpensWindow', (webContentsId: number, url: string) => contentsOf(webContentsId).openWindow(url))
operation('pageKey', (webContentsId: number, input: Record<string, unknown>) => contentsOf(webContentsId).pressKey(input))
operation('pageNavigates', (webContentsId: number, url: string) => contentsOf(webContentsId).navigate(url, 'page'))
operation('reload', (webContentsId: number) => contentsOf(webContentsId).navigate(contentsOf(webContentsId).url, 'reload'))
operation('rendererGone', (webContentsId: number, reason: string) => contentsOf(webContentsId).processGone(reason))
operation('trayMenu', () => StandInTray.all.at(-1)?.menu?.view() ?? null, 'looks')
operation('clickTrayItem', (path: string[]) => {
  const tray = StandInTray.all.at(-1)
  if (!tray?.menu) throw new Error('the tray has no menu')
  const item = tray.menu.find(path)
  if (!item.enabled) throw new Error(`tray item ${path.join(' › ')} is disabled`)
  item.click?.(item, undefined, new StandInEvent())
})
operation('clickTray', () => {
  const tray = StandInTray.all.at(-1)
  if (!tray) throw new Error('there is no tray icon')
  emitEvent(tray, tray.label, 'click', new StandInEvent(), { x: 0, y: 0, width: 22, height: 22 }, { x: 0, y: 0 })
})
operation('applicationMenu', () => StandInMenu.getApplicationMenu()?.view() ?? null, 'looks')
operation('dialogs', () => [...pendingDialogs.values()].map((d) => d.view), 'looks')
operation('answerDialog', (id: number, button: string) => {
  const pending = pendingDialogs.get(id)
  if (!pending) throw new Error(`no dialog #${id} is waiting`)
  const response = pending.view.buttons.indexOf(button)
  if (response < 0) throw new Error(`dialog #${id} has no button "${button}" (it has ${pending.view.buttons.join(', ')})`)
  pendingDialogs.delete(id)
  pending.answer(response)
})
operation('cookies', (): CookieView[] => [...StandInSession.all.values()].flatMap((s) => s.cookiesView()), 'looks')
operation('setClipboard', (text: string) => {
  clipboardText = text
})
operation('clickNotification', (id: number) => {
  const shown = StandInNotification.all.get(id)
  if (!shown) throw new Error(`no notification #${id}`)
  emitEvent(shown, shown.label, 'click', new StandInEvent())
})
operation(
  'permission',
  (webContentsId: number, permission: string, url: string) => {
    const ses = contentsOf(webContentsId).session
    const parsed = new URL(url)
    // A standard custom scheme has a real origin in Chromium (Node's URL calls it opaque).
    const origin = privilegedSchemes.get(parsed.protocol.slice(0, -1))?.standard ? `${parsed.protocol}//${parsed.host}` : parsed.origin
    return ses.permissionCheckHandler
      ? ses.permissionCheckHandler(contentsOf(webContentsId), permission, origin, { requestingUrl: url })
      : true
  },
  'looks'
)
operation('quit', () => app.quit())
operation('secondInstance', (argv: string[]) => {
  emitEvent(app, 'app', 'second-instance', new StandInEvent(), ['cloud-tray', ...argv], process.cwd(), {})
})
/**
 * The page calls `fetch(url)`: allowed or refused as Chromium in Electron 45 decides it
 * (page-policy.ts), from the page's own policies, its scheme and the build's fuses; an allowed
 * file: or app: fetch really reads, so the harness sees what the page would get.
 */
operation('pageFetches', async (webContentsId: number, url: string) => {
  const contents = contentsOf(webContentsId)
  const page = new URL(contents.url)
  const target = new URL(url)
  const fetchable = new Set([...privilegedSchemes].filter(([, p]) => p.supportFetchAPI === true).map(([scheme]) => scheme))
  const verdict = fetchVerdict({
    page,
    target,
    policies: contents.policies,
    // Electron's default is on; a packaged build carries what scripts/after-pack-fuses.cjs flipped.
    fileExtraPrivileges: options.fuses?.['GrantFileProtocolExtraPrivileges'] ?? true,
    fetchableSchemes: fetchable
  })
  record('page.fetch', contents.label, [url, verdict])
  if (!verdict.ok) return verdict
  if (target.protocol === 'file:') return { ok: true, bytes: (await readFile(fileURLToPath(target))).byteLength }
  const answer = await contents.session.request(url)
  return { ok: answer.status < 400, status: answer.status, bytes: answer.body.byteLength }
})
/** Chromium asks the app's scheme handler for a URL (the renderer page in headless Chromium is fed this way). */
operation(
  'protocolRequest',
  async (url: string) => {
    const answer = await StandInSession.of('').request(url)
    return { status: answer.status, headers: answer.headers, body: Buffer.from(answer.body).toString('base64') }
  },
  'looks'
)
operation('powerBlockers', () => Object.fromEntries(heldBlockers), 'looks')
operation('schemePrivileges', () => Object.fromEntries(privilegedSchemes), 'looks')

// Electron's main process does not die of an uncaught exception (or an unhandled rejection, which
// Node raises as one): it shows its own error box with the stack and keeps running
// (lib/browser/init.ts). A user sees a developer's stack trace and, often, no window.
process.on('uncaughtException', (error: Error) => {
  if (process.listenerCount('uncaughtException') > 1) return
  record('electron.uncaughtException', undefined, [error.stack ?? String(error)])
  dialog.showErrorBox('A JavaScript error occurred in the main process', `Uncaught Exception:\n${error.stack ?? String(error)}`)
})
