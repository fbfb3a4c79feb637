/**
 * The app window: secure webPreferences, our page only (navigation-policy.ts), CSP also as a
 * response header, permissions denied by default, and hide-to-tray on close. One window; the
 * tray, a notification click or a second launch bring it back.
 */
import { BrowserWindow, nativeImage, session, shell } from 'electron'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { checkExternalUrl } from './external-links'
import { checkEditorUrl } from '../ssh/config/editors'
import { contentSecurityPolicy, mainWindowNavigation, permissionDecision, windowOpenDecision, type AppPage } from './navigation-policy'
import { windowIconPng } from './window-icon'
import { reloadAfterCrash } from './desktop-integration'

export interface MainWindowOptions {
  /** out/ of the build: preload at out/preload/index.cjs, page at out/renderer/index.html. */
  outDir: string
  /** ELECTRON_RENDERER_URL while developing. */
  devUrl?: string
  /** Whether closing should really close (the app is quitting) instead of hiding to the tray. */
  isQuitting(): boolean
  /** Web links the page tries to open go through the core's external.open check. */
  openExternal(url: string): void
  onFocus(): void
  /**
   * The page that talked to main is gone — the webContents destroyed, its renderer crashed, or
   * the page reloaded or navigated — so what it owned (terminal sessions) is released.
   */
  onGone(webContentsId: number): void
}

export interface MainWindow {
  readonly page: AppPage
  show(): void
  /** webContents of the app window, when open (for IPC). */
  contents(): Electron.WebContents[]
  destroy(): void
}

export function createMainWindowController(options: MainWindowOptions): MainWindow {
  const fileUrl = pathToFileURL(join(options.outDir, 'renderer', 'index.html')).toString()
  const page: AppPage = options.devUrl ? { devOrigin: new URL(options.devUrl).origin } : { fileUrl }
  let window: BrowserWindow | undefined
  /** When the page last reloaded by itself after a crash (a page that keeps crashing is left alone). */
  let lastCrashReload: number | undefined

  hardenSession(page)

  const create = (): BrowserWindow => {
    const iconPng = windowIconPng(process.platform)
    const win = new BrowserWindow({
      ...(iconPng ? { icon: nativeImage.createFromBuffer(iconPng) } : {}),
      width: 1100,
      height: 720,
      minWidth: 720,
      minHeight: 480,
      show: false,
      title: 'Cloud Tray',
      webPreferences: {
        // why: our own bundled preload, which exposes only window.cloud = { invoke, on } (scripts/security-preload.test.ts).
        preload: join(options.outDir, 'preload', 'index.cjs'), // eng-disable PRELOAD_JS_CHECK
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInSubFrames: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        webviewTag: false,
        spellcheck: false,
        // Middle-click would otherwise open links in new windows, around setWindowOpenHandler.
        disableBlinkFeatures: 'Auxclick'
      }
    })
    const contents = win.webContents
    const contentsId = contents.id
    contents.setWindowOpenHandler(({ url }) => {
      // why: only http(s) links pass windowOpenDecision, and openInBrowser checks them again.
      if (windowOpenDecision(url) === 'open-external') options.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK
      return { action: 'deny' }
    })
    // The address is read from the event (Electron 45 deprecates the positional argument).
    const guard = (event: Electron.Event<{ url: string }>): void => {
      const decision = mainWindowNavigation(event.url, page)
      if (decision === 'allow') return
      event.preventDefault()
      // why: only http(s) links pass mainWindowNavigation, and openInBrowser checks them again.
      if (decision === 'open-external') options.openExternal(event.url) // eng-disable OPEN_EXTERNAL_JS_CHECK
    }
    contents.on('will-navigate', guard)
    contents.on('will-redirect', guard)
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.on('destroyed', () => options.onGone(contentsId))
    // A reload or a new document: the old page's SSH sessions would otherwise stay open, unseen.
    contents.on('did-start-navigation', (event) => {
      if (event.isMainFrame && !event.isSameDocument) options.onGone(contentsId)
    })
    contents.on('render-process-gone', (_event, details) => {
      options.onGone(contentsId)
      if (reloadAfterCrash(details.reason, lastCrashReload, Date.now())) {
        lastCrashReload = Date.now()
        contents.reload()
      }
    })
    win.on('focus', () => options.onFocus())
    win.on('close', (event) => {
      if (options.isQuitting()) return
      // Closing hides to the tray; Quit is in the tray menu.
      event.preventDefault()
      win.hide()
    })
    win.on('closed', () => {
      if (window === win) window = undefined
    })
    if (options.devUrl) void win.loadURL(options.devUrl)
    else void win.loadFile(join(options.outDir, 'renderer', 'index.html'))
    return win
  }

  return {
    page,
    show() {
      window ??= create()
      // A page that crashed and was not reloaded (it kept crashing): bringing the window back tries again.
      if (window.webContents.isCrashed()) window.webContents.reload()
      if (window.isMinimized()) window.restore()
      if (!window.isVisible()) {
        if (window.webContents.isLoading()) window.once('ready-to-show', () => window?.show())
        else window.show()
      }
      window.focus()
    },
    contents: () => (window && !window.isDestroyed() ? [window.webContents] : []),
    destroy() {
      window?.destroy()
      window = undefined
    }
  }
}

/** The default session (our window's): CSP header on our pages, permissions denied by default. */
function hardenSession(page: AppPage): void {
  const appSession = session.defaultSession
  const csp = contentSecurityPolicy(page)
  const ours = page.devOrigin ? [`${page.devOrigin}/*`] : ['file://*']
  appSession.webRequest.onHeadersReceived({ urls: ours }, (details, callback) => {
    // why: the policy comes from contentSecurityPolicy() in navigation-policy.ts, table-tested there; the gate cannot parse a computed value.
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } }) // eng-disable CSP_GLOBAL_CHECK
  })
  appSession.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(permissionDecision(permission, details.requestingUrl, page))
  })
  // Checks carry an origin; file:// pages have no useful one, so the frame's URL decides.
  appSession.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    permissionDecision(permission, details.requestingUrl ?? requestingOrigin, page)
  )
}

/** Opens an editor's Remote-SSH link; anything but a link editorUrl makes is refused here. */
export function openEditorLink(url: string): Promise<void> {
  // why: checkEditorUrl lets through only vscode:/cursor: Remote-SSH links of editorUrl's exact shape.
  return shell.openExternal(checkEditorUrl(url)) // eng-disable OPEN_EXTERNAL_JS_CHECK
}

/** Opens a web link in the system browser; anything but a plain http(s) address is refused here. */
export function openInBrowser(url: string): Promise<void> {
  // why: checkExternalUrl lets through only http(s) without credentials, whoever the caller is.
  return shell.openExternal(checkExternalUrl(url)) // eng-disable OPEN_EXTERNAL_JS_CHECK
}
