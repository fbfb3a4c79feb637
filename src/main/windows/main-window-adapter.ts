/**
 * The app window: secure webPreferences, our page only (navigation-policy.ts) served from
 * app://cloud-tray/ with its CSP header (app-protocol.ts), permissions denied by default, and
 * hide-to-tray on close. One window; the tray, a notification click or a second launch bring it back.
 */
import { BrowserWindow, nativeImage, session, shell } from 'electron'
import { join } from 'node:path'
import { APP_PAGE_URL } from './app-protocol'
import { serveAppScheme } from './app-protocol-adapter'
import { checkExternalUrl } from './external-links'
import { checkEditorUrl } from '../ssh/config/editors'
import { requireSchemeHandler } from './scheme-handler'
import { contentSecurityPolicy, mainWindowNavigation, permissionDecision, windowOpenDecision, type AppPage } from './navigation-policy'
import { windowIconPng } from './window-icon'
import { reloadAfterCrash } from './desktop-integration'

export interface MainWindowOptions {
  /** out/ of the build: preload at out/preload/index.cjs, page at out/renderer/index.html. */
  outDir: string
  /** ELECTRON_RENDERER_URL while developing; index.ts never passes it to a packaged app. */
  devUrl?: string
  /** Whether closing should really close (the app is quitting) instead of hiding to the tray. */
  isQuitting(): boolean
  /**
   * Whether the desktop shows the tray (tray-host.ts), asked at each close: without it closing
   * minimizes, and `minimizedForNoTray` is told. Absent: always hide to the tray.
   */
  trayShown?(): Promise<boolean>
  minimizedForNoTray?(window: BrowserWindow): void
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
  /** Shows and focuses the window, and answers it: the parent of a question asked from the tray. */
  forDialog(): BrowserWindow | undefined
  /** Windows: the session is ending (shutdown, restart, log-off); `run` is the app's clean-up. */
  onSessionEnd(run: () => void): void
  show(): void
  /** Whether the app window is open and has the focus (a Wayland compositor may not give it at show, second-launch.ts). */
  isFocused(): boolean
  /** webContents of the app window, when open (for IPC). */
  contents(): Electron.WebContents[]
  destroy(): void
}

export function createMainWindowController(options: MainWindowOptions): MainWindow {
  const page: AppPage = options.devUrl ? { devOrigin: new URL(options.devUrl).origin } : { pageUrl: APP_PAGE_URL }
  let window: BrowserWindow | undefined
  const sessionEnd = new Set<() => void>()
  /** When the page last reloaded by itself after a crash (a page that keeps crashing is left alone). */
  let lastCrashReload: number | undefined

  hardenSession(page)
  if (!options.devUrl) serveAppScheme(join(options.outDir, 'renderer'))

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
    // Windows only; no before-quit or will-quit comes at a shutdown or log-off.
    win.on('session-end', () => {
      for (const run of sessionEnd) run()
    })
    win.on('close', (event) => {
      if (options.isQuitting()) return
      // Closing hides to the tray, where Quit is; with no tray on this desktop it minimizes.
      event.preventDefault()
      if (!options.trayShown) return win.hide()
      void options.trayShown().then((shown) => {
        if (win.isDestroyed()) return
        if (shown) return win.hide()
        win.minimize()
        options.minimizedForNoTray?.(win)
      })
    })
    win.on('closed', () => {
      if (window === win) window = undefined
    })
    void win.loadURL(options.devUrl ?? APP_PAGE_URL)
    return win
  }

  const controller: MainWindow = {
    page,
    forDialog() {
      controller.show()
      return window
    },
    onSessionEnd(run) {
      sessionEnd.add(run)
    },
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
    isFocused: () => window !== undefined && !window.isDestroyed() && window.isFocused(),
    contents: () => (window && !window.isDestroyed() ? [window.webContents] : []),
    destroy() {
      window?.destroy()
      window = undefined
    }
  }
  return controller
}

/**
 * The default session (our window's): permissions denied by default. The built page's CSP header
 * comes with it from the app:// handler; the dev server's page gets the same policy (plus its
 * HMR socket) added to its responses here.
 */
function hardenSession(page: AppPage): void {
  const appSession = session.defaultSession
  if (page.devOrigin) {
    const csp = contentSecurityPolicy(page)
    appSession.webRequest.onHeadersReceived({ urls: [`${page.devOrigin}/*`] }, (details, callback) => {
      // why: the policy comes from contentSecurityPolicy() in navigation-policy.ts, table-tested there; the gate cannot parse a computed value.
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } }) // eng-disable CSP_GLOBAL_CHECK
    })
  }
  appSession.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(permissionDecision(permission, details.requestingUrl, page))
  })
  // Checks carry an origin; the frame's URL decides (it names the document, not just the origin).
  appSession.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    permissionDecision(permission, details.requestingUrl ?? requestingOrigin, page)
  )
}

/**
 * Opens an editor's Remote-SSH link; anything but a link editorUrl makes is refused here. On
 * Linux a link no application takes is refused first (scheme-handler.ts), as xdg-open's own
 * failure never reaches Electron's promise.
 */
export async function openEditorLink(url: string): Promise<void> {
  if (process.platform === 'linux') await requireSchemeHandler(checkEditorUrl(url))
  // why: checkEditorUrl lets through only vscode:/cursor: Remote-SSH links of editorUrl's exact shape.
  return shell.openExternal(checkEditorUrl(url)) // eng-disable OPEN_EXTERNAL_JS_CHECK
}

/** Opens a web link in the system browser; anything but a plain http(s) address is refused here. */
export function openInBrowser(url: string): Promise<void> {
  // why: checkExternalUrl lets through only http(s) without credentials, whoever the caller is.
  return shell.openExternal(checkExternalUrl(url)) // eng-disable OPEN_EXTERNAL_JS_CHECK
}
