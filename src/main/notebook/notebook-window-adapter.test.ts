/**
 * The Electron glue, against recording fakes of `electron` (the binary cannot run here): what
 * it asks of Electron — partition, cookie before load, secure preferences, guards, certificate
 * verdicts, permissions — is checked call by call.
 */
import { EventEmitter } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { NotebookWindowRequest } from '../core-types'

const calls: string[] = []

class FakeCookies {
  constructor(private readonly partition: string) {}
  set = vi.fn(async (cookie: { url: string; value: string }) => {
    calls.push(`cookie ${this.partition} ${cookie.url}`)
  })
}

class FakeSession {
  cookies: FakeCookies
  permissionRequest?: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void
  permissionCheck?: () => boolean
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
}

class FakeContents extends EventEmitter {
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
  constructor(readonly options: { webPreferences: Record<string, unknown>; title: string; icon?: { png: Buffer } }) {
    super()
    FakeWindow.all.push(this)
  }
  async loadURL(url: string): Promise<void> {
    calls.push(`load ${url.startsWith('data:') ? 'data:' : url}`)
    if (this.loadFails && !url.startsWith('data:')) throw Object.assign(new Error('failed'), { code: this.loadFails })
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
  show(): void {}
  close(): void {
    this.destroyed = true
    this.emit('closed')
  }
}

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
  nativeImage: { createFromBuffer: (png: Buffer) => ({ png }) }
}))

const { createNotebookWindows } = await import('./notebook-window-adapter')
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

beforeEach(() => {
  calls.length = 0
  opened.length = 0
  FakeWindow.all = []
  sessions.clear()
})

describe('notebook window adapter', () => {
  it('sets the cookie in the profile’s partition before loading, in a sandboxed window with no preload', async () => {
    await createNotebookWindows().open(request())
    expect(calls).toEqual(['cookie persist:notebook-sandbox https://127.0.0.1:40123', 'load https://127.0.0.1:40123/notebook/inst-1/lab'])
    const preferences = FakeWindow.all[0]!.options.webPreferences
    expect(preferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webviewTag: false })
    expect(preferences).not.toHaveProperty('preload')
    expect(preferences['session']).toBe(sessions.get('persist:notebook-sandbox'))
    // On Linux the window carries the app icon (elsewhere the bundle's or the executable's shows).
    expect(FakeWindow.all[0]!.options.icon?.png).toEqual(windowIconPng(process.platform))
  })

  it('denies every permission and trusts only the pinned certificate on the pinned host', async () => {
    await createNotebookWindows().open(request())
    const ses = sessions.get('persist:notebook-sandbox')!
    const granted: boolean[] = []
    ses.permissionRequest!(undefined, 'media', (value) => granted.push(value))
    expect(granted).toEqual([false])
    expect(ses.permissionCheck!()).toBe(false)
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
    contents.emit('will-frame-navigate', { url: 'https://tracker.example/', isMainFrame: false, preventDefault: () => (framePrevented = true) })
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
    expect(set).toHaveBeenLastCalledWith({ url: 'https://127.0.0.1:40123', name: 'AccessToken', value: 'new.tok.en', secure: true, httpOnly: true, sameSite: 'strict' })
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
  })
})
