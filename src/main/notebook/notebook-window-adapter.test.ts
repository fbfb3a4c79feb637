/**
 * The Electron glue, against recording fakes of `electron` (the binary cannot run here): what
 * it asks of Electron — partition, cookie before load, secure preferences, guards, certificate
 * verdicts, permissions — is checked call by call.
 */
import { EventEmitter } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ManualClock, flushAsync } from '../../shared/clock'
import { highest, lowest } from '../../shared/extremes'
import type { NotebookWindowRequest } from '../core-types'
import { keyDown } from './testing/key-down'
import type { ZoomKeyInput } from './zoom-keys'

const calls: string[] = []

class FakeCookies {
  constructor(private readonly partition: string) {}
  set = vi.fn(async (cookie: { url: string; value: string }) => {
    calls.push(`cookie ${this.partition} ${cookie.url}`)
  })
  remove = vi.fn(async (url: string, name: string) => {
    calls.push(`remove ${this.partition} ${url} ${name}`)
  })
}

class FakeSession {
  cookies: FakeCookies
  permissionRequest?: (
    contents: unknown,
    permission: string,
    callback: (granted: boolean) => void,
    details: { requestingUrl?: string; isMainFrame: boolean }
  ) => void
  permissionCheck?: (
    contents: unknown,
    permission: string,
    origin: string,
    details: { requestingUrl?: string; isMainFrame: boolean }
  ) => boolean
  deviceCheck?: () => boolean
  verify?: (request: { hostname: string; certificate: { fingerprint: string } }, callback: (result: number) => void) => void
  constructor(readonly partition: string) {
    this.cookies = new FakeCookies(partition)
  }
  setPermissionRequestHandler(handler: FakeSession['permissionRequest']): void {
    this.permissionRequest = handler
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheck']): void {
    this.permissionCheck = handler
  }
  setDevicePermissionHandler(handler: FakeSession['deviceCheck']): void {
    this.deviceCheck = handler
  }
  setCertificateVerifyProc(proc: FakeSession['verify']): void {
    this.verify = proc
  }
  async clearStorageData(): Promise<void> {
    calls.push(`clear storage ${this.partition}`)
  }
  async clearCache(): Promise<void> {
    calls.push(`clear cache ${this.partition}`)
  }
}

class FakeContents extends EventEmitter {
  loaded: string[] = []
  reloads = 0
  historyCleared = 0
  readonly navigationHistory = { clear: (): void => void this.historyCleared++ }
  /** Every factor the adapter asked for, unclamped (Electron would clamp to 0.25–5 itself). */
  zoomFactors: number[] = []
  getZoomFactor(): number {
    return this.zoomFactors.at(-1) ?? 1
  }
  setZoomFactor(factor: number): void {
    this.zoomFactors.push(factor)
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url)
  }
  reload(): void {
    this.reloads++
  }
  openHandler?: (details: { url: string }) => { action: string; overrideBrowserWindowOptions?: unknown }
  setWindowOpenHandler(handler: FakeContents['openHandler']): void {
    this.openHandler = handler
  }
}

class FakeWindow extends EventEmitter {
  static all: FakeWindow[] = []
  webContents = new FakeContents()
  destroyed = false
  focused = 0
  loadFails?: string
  /** Every URL loaded into the window, in order. */
  pages: string[] = []
  shows = 0
  /** The notebook's server keeps its page waiting (a TLS handshake that hangs): its load settles only when the test says. */
  static holdsNotebook = false
  held?: { resolve: () => void; reject: (error: Error) => void }
  /** The page's beforeunload refuses (unsaved work). */
  refuses = false
  constructor(readonly options: { webPreferences?: Record<string, unknown>; title?: string; icon?: { png: Buffer } }) {
    super()
    FakeWindow.all.push(this)
  }
  async loadURL(url: string): Promise<void> {
    calls.push(`load ${url.startsWith('data:') ? 'data:' : url}`)
    this.pages.push(url)
    if (this.loadFails && !url.startsWith('data:')) throw Object.assign(new Error('failed'), { code: this.loadFails })
    if (FakeWindow.holdsNotebook && !url.startsWith('data:'))
      await new Promise<void>((resolve, reject) => (this.held = { resolve, reject }))
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  isMinimized(): boolean {
    return false
  }
  restore(): void {}
  focus(): void {
    this.focused++
  }
  show(): void {
    this.shows++
  }
  /** As Electron: `close`, then the page's beforeunload; a refusal unanswered cancels the close. */
  close(): void {
    this.emit('close', { preventDefault: () => {} })
    if (this.refuses) {
      let prevented = false
      this.webContents.emit('will-prevent-unload', { preventDefault: () => (prevented = true) })
      if (!prevented) return
    }
    this.destroy()
  }
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.emit('closed')
  }
}

const dialogAnswers: number[] = []
const asked: { message: string; buttons: string[]; sync: boolean }[] = []

const sessions = new Map<string, FakeSession>()
const opened: string[] = []

vi.mock('electron', () => ({
  BrowserWindow: FakeWindow,
  session: {
    fromPartition: (partition: string) => {
      if (!sessions.has(partition)) sessions.set(partition, new FakeSession(partition))
      return sessions.get(partition)
    }
  },
  shell: { openExternal: async (url: string) => void opened.push(url) },
  dialog: {
    showMessageBox: async (_window: unknown, question: { message: string; buttons: string[] }) => {
      asked.push({ message: question.message, buttons: question.buttons, sync: false })
      return { response: dialogAnswers.shift() ?? 1 }
    },
    showMessageBoxSync: (_window: unknown, question: { message: string; buttons: string[] }) => {
      asked.push({ message: question.message, buttons: question.buttons, sync: true })
      return dialogAnswers.shift() ?? 1
    }
  },
  nativeImage: { createFromBuffer: (png: Buffer) => ({ png }) }
}))

const { createNotebookWindows, SHOW_ANYWAY_MS } = await import('./notebook-window-adapter')
const { windowIconPng } = await import('../windows/window-icon')

const PIN = 'ab'.repeat(32)
const PIN_ELECTRON = `sha256/${Buffer.from(PIN, 'hex').toString('base64')}`

function request(overrides: Partial<NotebookWindowRequest> = {}): NotebookWindowRequest {
  const url = overrides.url ?? 'https://127.0.0.1:40123/notebook/inst-1/lab'
  return {
    profileId: 'sandbox',
    instanceId: 'inst-1',
    instanceName: 'trainer',
    url,
    cookie: { url: new URL(url).origin, name: 'AccessToken', value: 'tok.en.1', secure: true, httpOnly: true, sameSite: 'strict' },
    pinnedCertificateSha256: PIN,
    ...overrides
  }
}

/** The text of a page main wrote itself (a data: URL). */
const pageText = (url: string | undefined): string => decodeURIComponent(url?.replace(/^data:text\/html;charset=utf-8,/, '') ?? '')

beforeEach(() => {
  FakeWindow.holdsNotebook = false
  calls.length = 0
  opened.length = 0
  asked.length = 0
  dialogAnswers.length = 0
  FakeWindow.all = []
  sessions.clear()
})

describe('notebook window adapter', () => {
  it('sets the cookie in the profile’s partition before loading, in a sandboxed window with no preload', async () => {
    await createNotebookWindows().open(request())
    // Our own "opening" page first (nothing from the network), then the notebook.
    expect(calls).toEqual([
      'cookie persist:notebook-sandbox https://127.0.0.1:40123',
      'load data:',
      'load https://127.0.0.1:40123/notebook/inst-1/lab'
    ])
    const preferences = FakeWindow.all[0]!.options.webPreferences!
    expect(preferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webviewTag: false })
    expect(preferences).not.toHaveProperty('preload')
    expect(preferences['session']).toBe(sessions.get('persist:notebook-sandbox'))
    // On Linux the window carries the app icon (elsewhere the bundle's or the executable's shows).
    expect(FakeWindow.all[0]!.options.icon?.png).toEqual(windowIconPng(process.platform))
  })

  it("allows the notebook's own page clipboard-write and fullscreen, denies the rest, and trusts only the pinned certificate on the pinned host", async () => {
    await createNotebookWindows().open(request())
    const ses = sessions.get('persist:notebook-sandbox')!
    const page = { getURL: () => 'https://127.0.0.1:40123/notebook/inst-1/lab' }
    const granted: boolean[] = []
    const ask = (permission: string, requestingUrl: string, isMainFrame = true): void =>
      ses.permissionRequest!(page, permission, (value) => granted.push(value), { requestingUrl, isMainFrame })
    ask('media', 'https://127.0.0.1:40123/notebook/inst-1/lab')
    ask('clipboard-sanitized-write', 'https://127.0.0.1:40123/notebook/inst-1/lab')
    ask('fullscreen', 'https://127.0.0.1:40123/notebook/inst-1/lab')
    ask('clipboard-sanitized-write', 'https://elsewhere.example/')
    ask('fullscreen', 'https://127.0.0.1:40123/notebook/inst-1/lab', false)
    ask('clipboard-read', 'https://127.0.0.1:40123/notebook/inst-1/lab')
    expect(granted).toEqual([false, true, true, false, false, false])
    expect(
      ses.permissionCheck!(page, 'geolocation', 'https://127.0.0.1:40123', { requestingUrl: 'https://127.0.0.1:40123/', isMainFrame: true })
    ).toBe(false)
    expect(
      ses.permissionCheck!(page, 'clipboard-sanitized-write', 'https://127.0.0.1:40123', {
        requestingUrl: 'https://127.0.0.1:40123/x',
        isMainFrame: true
      })
    ).toBe(true)
    const verdict = (hostname: string, fingerprint: string): number => {
      let result = NaN
      ses.verify!({ hostname, certificate: { fingerprint } }, (value) => (result = value))
      return result
    }
    expect(verdict('127.0.0.1', PIN_ELECTRON)).toBe(0)
    expect(verdict('127.0.0.1', `sha256/${Buffer.alloc(32).toString('base64')}`)).toBe(-3)
    expect(verdict('example.com', PIN_ELECTRON)).toBe(-3)
  })

  it('keeps navigation on the origin: other web links to the browser, other schemes nowhere', async () => {
    await createNotebookWindows().open(request())
    const contents = FakeWindow.all[0]!.webContents
    const navigate = (url: string): boolean => {
      let prevented = false
      contents.emit('will-navigate', { url, preventDefault: () => (prevented = true) })
      return prevented
    }
    expect(navigate('https://127.0.0.1:40123/notebook/inst-1/tree')).toBe(false)
    expect(navigate('https://hpc-ai.com/docs')).toBe(true)
    expect(navigate('file:///etc/passwd')).toBe(true)
    await new Promise((resolve) => setImmediate(resolve))
    expect(opened).toEqual(['https://hpc-ai.com/docs'])

    let framePrevented = false
    contents.emit('will-frame-navigate', {
      url: 'https://tracker.example/',
      isMainFrame: false,
      preventDefault: () => (framePrevented = true)
    })
    expect(framePrevented).toBe(true)
    expect(contents.openHandler!({ url: 'https://127.0.0.1:40123/notebook/inst-1/other' }).action).toBe('allow')
    expect(contents.openHandler!({ url: 'javascript:alert(1)' }).action).toBe('deny')
    expect(contents.openHandler!({ url: 'https://example.com/' }).action).toBe('deny')
    await new Promise((resolve) => setImmediate(resolve))
    expect(opened).toEqual(['https://hpc-ai.com/docs', 'https://example.com/'])
  })

  it('focuses the open window for the same notebook, and refreshes its cookie after a re-login', async () => {
    const windows = createNotebookWindows()
    await windows.open(request())
    await windows.open(request())
    expect(FakeWindow.all).toHaveLength(1)
    expect(FakeWindow.all[0]!.focused).toBe(1)
    await windows.refreshCookies('sandbox', 'new.tok.en')
    const set = sessions.get('persist:notebook-sandbox')!.cookies.set
    expect(set).toHaveBeenLastCalledWith({
      url: 'https://127.0.0.1:40123',
      name: 'AccessToken',
      value: 'new.tok.en',
      secure: true,
      httpOnly: true,
      sameSite: 'strict'
    })
    await windows.refreshCookies('other-profile', 'x.y.z')
    expect(set).toHaveBeenCalledTimes(3)
  })

  it('makes a new window when the notebook moved to another origin', async () => {
    const windows = createNotebookWindows()
    await windows.open(request())
    await windows.open(request({ url: 'https://127.0.0.1:40999/notebook/inst-1/lab' }))
    expect(FakeWindow.all).toHaveLength(2)
    expect(FakeWindow.all[0]!.destroyed).toBe(true)
  })

  it('shows what went wrong in the window when the page does not load', async () => {
    const windows = createNotebookWindows()
    const original = FakeWindow.prototype.loadURL
    FakeWindow.prototype.loadURL = async function (this: FakeWindow, url: string) {
      this.loadFails = 'ERR_CERT_AUTHORITY_INVALID'
      return original.call(this, url)
    }
    try {
      await windows.open(request())
    } finally {
      FakeWindow.prototype.loadURL = original
    }
    expect(calls.slice(-2)).toEqual(['load https://127.0.0.1:40123/notebook/inst-1/lab', 'load data:'])
    expect(pageText(FakeWindow.all[0]!.pages.at(-1))).toContain('certificate is not one Cloud Tray trusts')
    expect(FakeWindow.all[0]!.shows).toBe(1)
  })

  it('tracks the pop-ups a notebook opens (they outlive it), and closes them with the others', async () => {
    const windows = createNotebookWindows()
    await windows.open(request())
    const notebook = FakeWindow.all[0]!
    const answer = notebook.webContents.openHandler!({ url: 'https://127.0.0.1:40123/notebook/inst-1/lab?view=console' })
    expect(answer).toMatchObject({ action: 'allow', outlivesOpener: true })
    const popup = new FakeWindow({})
    notebook.webContents.emit('did-create-window', popup)
    expect(await windows.closeAll()).toEqual([])
    expect([notebook.destroyed, popup.destroyed]).toEqual([true, true])
  })

  it('closeAll keeps the windows whose page refuses, and names them; destroyAll then closes them without asking', async () => {
    const windows = createNotebookWindows()
    await windows.open(request())
    await windows.open(request({ instanceId: 'inst-2', instanceName: 'other' }))
    const [first, second] = FakeWindow.all as [FakeWindow, FakeWindow]
    first.refuses = true
    expect(await windows.closeAll('sandbox')).toEqual(['trainer — Notebook'])
    expect([first.destroyed, second.destroyed]).toEqual([false, true])
    expect(asked).toEqual([])
    windows.destroyAll()
    expect(first.destroyed).toBe(true)
  })

  it('a refused close of one window asks, and closes it only if the user leaves', async () => {
    const windows = createNotebookWindows()
    await windows.open(request())
    const notebook = FakeWindow.all[0]!
    notebook.refuses = true
    dialogAnswers.push(1) // Stay
    notebook.close()
    await new Promise((resolve) => setImmediate(resolve))
    expect(asked).toEqual([{ message: 'Close this notebook window?', buttons: ['Close Anyway', 'Stay'], sync: false }])
    expect(notebook.destroyed).toBe(false)
    dialogAnswers.push(0) // Close Anyway
    notebook.close()
    await new Promise((resolve) => setImmediate(resolve))
    expect(notebook.destroyed).toBe(true)
  })

  it('leaving the page inside the window asks without blocking main; "Leave" makes the navigation again and lets it through', async () => {
    await createNotebookWindows().open(request())
    const contents = FakeWindow.all[0]!.webContents
    const unload = (): boolean => {
      let prevented = false
      contents.emit('will-prevent-unload', { preventDefault: () => (prevented = true) })
      return prevented
    }
    // "Stay": the page stays, nothing is made again.
    dialogAnswers.push(1)
    contents.emit('will-navigate', { url: 'https://127.0.0.1:40123/notebook/inst-1/tree' })
    expect(unload()).toBe(false)
    await flushAsync()
    expect(contents.loaded).toEqual([])
    // "Leave": the same navigation again, and its unload refusal overridden once.
    dialogAnswers.push(0)
    expect(unload()).toBe(false)
    await flushAsync()
    expect(contents.loaded).toEqual(['https://127.0.0.1:40123/notebook/inst-1/tree'])
    expect(unload()).toBe(true)
    expect(asked.map((a) => [a.message, a.sync])).toEqual([
      ['Leave this notebook page?', false],
      ['Leave this notebook page?', false]
    ])
  })

  it("ending a profile's access closes its windows and removes the cookie and the partition's storage", async () => {
    const windows = createNotebookWindows()
    await windows.open(request())
    await windows.open(
      request({
        profileId: 'hpc-ai',
        url: 'https://nb.example/notebook/inst-9/lab',
        cookie: { url: 'https://nb.example', name: 'AccessToken', value: 't', secure: true, httpOnly: true, sameSite: 'strict' }
      })
    )
    calls.length = 0
    await windows.endAccess('sandbox')
    expect(calls).toEqual([
      'remove persist:notebook-sandbox https://127.0.0.1:40123 AccessToken',
      'clear storage persist:notebook-sandbox',
      'clear cache persist:notebook-sandbox'
    ])
    expect(FakeWindow.all.map((w) => w.destroyed)).toEqual([true, false])
    // The next sign-in's notebook gets a fresh window and cookie.
    await windows.open(request())
    expect(FakeWindow.all).toHaveLength(3)
  })
})

describe('notebook window adapter: a click always shows a window', () => {
  it('a page not ready within about a second: the window is shown anyway, on our "opening" page (never blank), and not again when the page comes', async () => {
    const clock = new ManualClock()
    FakeWindow.holdsNotebook = true // the notebook server hangs in its TLS handshake
    void createNotebookWindows(undefined, clock).open(request())
    await flushAsync()
    const window = FakeWindow.all[0]!
    // Electron's ready-to-show comes for our own opening page: not the notebook being ready.
    window.emit('ready-to-show')
    clock.advance(SHOW_ANYWAY_MS - 1)
    expect(window.shows).toBe(0)
    clock.advance(1)
    expect(window.shows).toBe(1)
    expect(SHOW_ANYWAY_MS).toBeLessThanOrEqual(1_000)
    // What the window shows meanwhile: our page, while the notebook's load is still under way.
    expect(window.pages).toEqual([expect.stringMatching(/^data:/), 'https://127.0.0.1:40123/notebook/inst-1/lab'])
    const opening = pageText(window.pages[0])
    expect(opening).toContain('Opening the notebook of trainer')
    expect(opening).toContain("default-src 'none'")
    // The notebook's page comes at last: the same window, not shown twice.
    window.webContents.emit('did-navigate')
    window.webContents.emit('dom-ready')
    window.held!.resolve()
    await flushAsync()
    expect(window.shows).toBe(1)
  })

  it('a page ready first is shown at once, once; its entry is then the only one (Back cannot return to "opening")', async () => {
    const clock = new ManualClock()
    FakeWindow.holdsNotebook = true
    void createNotebookWindows(undefined, clock).open(request())
    await flushAsync()
    const window = FakeWindow.all[0]!
    expect(window.shows).toBe(0)
    window.webContents.emit('did-navigate')
    window.webContents.emit('dom-ready')
    expect(window.shows).toBe(1)
    expect(window.webContents.historyCleared).toBe(1)
    clock.advance(SHOW_ANYWAY_MS * 10)
    expect(window.shows).toBe(1)
    expect(clock.pending).toBe(0)
  })

  it('a load that fails after the window was shown anyway says what went wrong, in the user’s words, in that window', async () => {
    const clock = new ManualClock()
    FakeWindow.holdsNotebook = true
    const opening = createNotebookWindows(undefined, clock).open(request())
    await flushAsync()
    const window = FakeWindow.all[0]!
    clock.advance(SHOW_ANYWAY_MS)
    expect(window.shows).toBe(1)
    window.held!.reject(Object.assign(new Error('failed'), { code: 'ERR_CONNECTION_TIMED_OUT' }))
    await opening
    expect(pageText(window.pages.at(-1))).toContain('The notebook did not answer in time')
    expect(window.shows).toBe(1)
  })

  it('opening it again while its page keeps it waiting shows it at once', async () => {
    const clock = new ManualClock()
    FakeWindow.holdsNotebook = true
    const windows = createNotebookWindows(undefined, clock)
    void windows.open(request())
    await flushAsync()
    await windows.open(request())
    expect(FakeWindow.all).toHaveLength(1)
    expect(FakeWindow.all[0]!.shows).toBe(1)
    expect(FakeWindow.all[0]!.focused).toBe(1)
    clock.advance(SHOW_ANYWAY_MS)
    expect(FakeWindow.all[0]!.shows).toBe(1)
  })
})

type KeyInput = ZoomKeyInput
/** The user presses a key in the page: Electron's before-input-event; true when main kept it from the page. */
function press(contents: FakeContents, input: KeyInput): boolean {
  let prevented = false
  contents.emit(
    'before-input-event',
    { preventDefault: () => (prevented = true) },
    { code: '', isAutoRepeat: false, isComposing: false, location: 0, modifiers: [], ...input }
  )
  return prevented
}

describe('notebook window adapter: zoom keys', () => {
  it('Ctrl with = or +, - and 0 zooms by Chromium’s steps, and stays within 25 %–500 %', async () => {
    await createNotebookWindows(undefined, new ManualClock(), 'linux').open(request())
    const contents = FakeWindow.all[0]!.webContents
    expect(press(contents, keyDown('=', { control: true }))).toBe(true)
    expect(contents.getZoomFactor()).toBe(1.1)
    expect(press(contents, keyDown('+', { control: true, shift: true }))).toBe(true)
    expect(contents.getZoomFactor()).toBe(1.25)
    expect(press(contents, keyDown('-', { control: true }))).toBe(true)
    expect(contents.getZoomFactor()).toBe(1.1)
    expect(press(contents, keyDown('0', { control: true }))).toBe(true)
    expect(contents.getZoomFactor()).toBe(1)
    for (let i = 0; i < 30; i++) press(contents, keyDown('-', { control: true }))
    expect(contents.getZoomFactor()).toBe(0.25)
    for (let i = 0; i < 30; i++) press(contents, keyDown('=', { control: true }))
    expect(contents.getZoomFactor()).toBe(5)
    expect(lowest(contents.zoomFactors)).toBe(0.25)
    expect(highest(contents.zoomFactors)).toBe(5)
  })

  it('takes only the zoom chords: every other key reaches the page untouched', async () => {
    await createNotebookWindows(undefined, new ManualClock(), 'linux').open(request())
    const contents = FakeWindow.all[0]!.webContents
    const others = [
      keyDown('=') /* typing */,
      keyDown('a', { control: true }) /* select all */,
      keyDown('-', { control: true, shift: true }) /* JupyterLab's Split Cell */,
      keyDown('_', { control: true, shift: true }),
      keyDown('0', { control: true, alt: true }) /* AltGr on Windows */,
      keyDown('=', { meta: true }) /* the Super key on Linux */,
      keyDown('=', { control: true, meta: true }),
      { ...keyDown('=', { control: true }), type: 'keyUp' }
    ]
    expect(others.map((input) => press(contents, input))).toEqual(others.map(() => false))
    expect(contents.zoomFactors).toEqual([])
    // Among them, the chord itself is taken, and only it changes the zoom.
    expect(press(contents, keyDown('=', { control: true }))).toBe(true)
    expect(others.map((input) => press(contents, input))).toEqual(others.map(() => false))
    expect(contents.zoomFactors).toEqual([1.1])
  })

  it('⌘ on macOS (Ctrl there is the page’s), and in the pop-ups a notebook opens too', async () => {
    await createNotebookWindows(undefined, new ManualClock(), 'darwin').open(request())
    const notebook = FakeWindow.all[0]!
    expect(press(notebook.webContents, keyDown('=', { control: true }))).toBe(false)
    expect(press(notebook.webContents, keyDown('=', { meta: true }))).toBe(true)
    expect(notebook.webContents.getZoomFactor()).toBe(1.1)
    const popup = new FakeWindow({})
    notebook.webContents.emit('did-create-window', popup)
    expect(press(popup.webContents, keyDown('-', { meta: true }))).toBe(true)
    expect(popup.webContents.getZoomFactor()).toBe(0.9)
  })
})
