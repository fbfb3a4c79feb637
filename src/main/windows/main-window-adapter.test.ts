/**
 * The app window's glue against recording fakes of `electron` (Electron cannot run here): where
 * navigation goes, when the page's sessions are released, crash reloads, and hide-on-close.
 */
import { EventEmitter } from 'node:events'
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
  loadFile(): Promise<void> {
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
}

const openedInBrowser: string[] = []
vi.mock('electron', () => ({
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

const OUT = '/opt/Cloud Tray/resources/app.asar/out'
const PAGE = 'file:///opt/Cloud%20Tray/resources/app.asar/out/renderer/index.html'
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
    const controller = createMainWindowController({
      outDir: OUT,
      isQuitting: () => false,
      openExternal: () => {},
      onFocus: () => {},
      onGone: () => {}
    })
    controller.show()
    FakeWindow.last.webContents.crashed = true
    controller.show()
    expect(FakeWindow.last.webContents.reloads).toBe(1)
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
