/**
 * The app window's glue against recording fakes of `electron` (Electron cannot run here): where
 * navigation goes, when the page's sessions are released, crash reloads, and hide-on-close.
 */
import { EventEmitter } from 'node:events'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'

class FakeContents extends EventEmitter {
  id = 7
  crashed = false
  reloads = 0
  openHandler?: (details: { url: string }) => { action: string }
  setWindowOpenHandler(handler: FakeContents['openHandler']): void {
    this.openHandler = handler
  }
  isLoading(): boolean {
    return false
  }
  isCrashed(): boolean {
    return this.crashed
  }
  reload(): void {
    this.reloads++
  }
}

class FakeWindow extends EventEmitter {
  static last: FakeWindow
  webContents = new FakeContents()
  visible = false
  hidden = 0
  constructor(readonly options: unknown) {
    super()
    FakeWindow.last = this
  }
  loaded: string[] = []
  loadURL(url: string): Promise<void> {
    this.loaded.push(url)
    return Promise.resolve()
  }
  isMinimized(): boolean {
    return false
  }
  isVisible(): boolean {
    return this.visible
  }
  isDestroyed(): boolean {
    return false
  }
  show(): void {
    this.visible = true
  }
  hide(): void {
    this.hidden++
    this.visible = false
  }
  focus(): void {}
  focused = false
  isFocused(): boolean {
    return this.focused
  }
}

const openedInBrowser: string[] = []
const schemes = new Map<string, (request: Request) => Promise<Response>>()
vi.mock('electron', () => ({
  protocol: {
    isProtocolHandled: (scheme: string) => schemes.has(scheme),
    handle: (scheme: string, handler: (request: Request) => Promise<Response>) => {
      if (schemes.has(scheme)) throw new Error(`Failed to register protocol: ${scheme}`)
      schemes.set(scheme, handler)
    }
  },
  BrowserWindow: FakeWindow,
  nativeImage: { createFromBuffer: () => ({}) },
  shell: { openExternal: async (url: string) => void openedInBrowser.push(url) },
  session: {
    defaultSession: {
      webRequest: { onHeadersReceived: () => {} },
      setPermissionRequestHandler: () => {},
      setPermissionCheckHandler: () => {}
    }
  }
}))

const { createMainWindowController } = await import('./main-window-adapter')

const OUT = join(mkdtempSync(join(tmpdir(), 'app-window-')), 'out')
mkdirSync(join(OUT, 'renderer', 'assets'), { recursive: true })
writeFileSync(join(OUT, 'renderer', 'index.html'), '<!doctype html><title>Cloud Tray</title>')
writeFileSync(join(OUT, 'renderer', 'assets', 'index.js'), 'export {}')
writeFileSync(join(OUT, 'secret.txt'), 'not for the page')
const PAGE = 'app://cloud-tray/index.html'
let external: string[]
let gone: number[]
let quitting: boolean

function open(): FakeWindow {
  const controller = createMainWindowController({
    outDir: OUT,
    isQuitting: () => quitting,
    openExternal: (url) => void external.push(url),
    onFocus: () => {},
    onGone: (id) => void gone.push(id)
  })
  controller.show()
  return FakeWindow.last
}

/** A controller whose callbacks the test does not follow. */
function quietController(): ReturnType<typeof createMainWindowController> {
  return createMainWindowController({ outDir: OUT, isQuitting: () => false, openExternal: () => {}, onFocus: () => {}, onGone: () => {} })
}

/** As Electron 45 emits it, and as later versions will: the address on the event only. */
function navigate(window: FakeWindow, event: 'will-navigate' | 'will-redirect', url: string): boolean {
  let prevented = false
  window.webContents.emit(event, { url, isMainFrame: true, preventDefault: () => (prevented = true) })
  return prevented
}

beforeEach(() => {
  external = []
  gone = []
  quitting = false
})

describe('app window adapter', () => {
  it('loads its page from app://, whose handler serves the built folder only, the page with its CSP header', async () => {
    const window = open()
    expect(window.loaded).toEqual([PAGE])
    const handler = schemes.get('app')!
    const page = await handler(new Request(PAGE))
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<title>Cloud Tray</title>')
    expect(page.headers.get('content-security-policy')).toMatch(/connect-src 'self';/)
    const script = await handler(new Request('app://cloud-tray/assets/index.js'))
    expect([script.status, script.headers.get('content-type'), script.headers.get('content-security-policy')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      null
    ])
    for (const outside of [
      'app://cloud-tray/../secret.txt',
      'app://cloud-tray/%2e%2e/secret.txt',
      'app://cloud-tray/..%2fsecret.txt',
      'app://other/index.html'
    ]) {
      expect((await handler(new Request(outside))).status, outside).toBe(404)
    }
    expect((await handler(new Request(PAGE, { method: 'POST', body: 'x' }))).status).toBe(405)
  })

  it('reads the navigation target from the event: our page stays, web links go to the browser, the rest nowhere', () => {
    const window = open()
    expect(navigate(window, 'will-navigate', `${PAGE}#/settings`)).toBe(false)
    expect(navigate(window, 'will-navigate', 'https://hpc-ai.com/docs')).toBe(true)
    expect(navigate(window, 'will-redirect', 'file:///etc/passwd')).toBe(true)
    expect(external).toEqual(['https://hpc-ai.com/docs'])
  })

  it("releases the page's sessions when the page reloads or navigates, its renderer dies, or it is destroyed", () => {
    const window = open()
    const contents = window.webContents
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true })
    contents.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false })
    expect(gone).toEqual([])
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false })
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 })
    contents.emit('destroyed', {})
    expect(gone).toEqual([7, 7, 7])
  })

  it('reloads a crashed page once a minute at most; bringing the window back tries again', () => {
    const window = open()
    const contents = window.webContents
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 })
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 })
    expect(contents.reloads).toBe(1)
    contents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 })
    expect(contents.reloads).toBe(1)
    contents.crashed = true
    const controller = quietController()
    controller.show()
    FakeWindow.last.webContents.crashed = true
    controller.show()
    expect(FakeWindow.last.webContents.reloads).toBe(1)
  })

  it('says whether the window has the focus: not before it exists, then as the window says', () => {
    const controller = quietController()
    expect(controller.isFocused()).toBe(false)
    controller.show()
    expect(controller.isFocused()).toBe(false)
    FakeWindow.last.focused = true
    expect(controller.isFocused()).toBe(true)
  })

  it('hides on close until the quit is confirmed', () => {
    const window = open()
    let prevented = false
    window.emit('close', { preventDefault: () => (prevented = true) })
    expect([prevented, window.hidden]).toEqual([true, 1])
    quitting = true
    prevented = false
    window.emit('close', { preventDefault: () => (prevented = true) })
    expect(prevented).toBe(false)
  })
})
