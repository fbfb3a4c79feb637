/**
 * Notebook windows in Electron: glue only. Every decision is a pure, tested function
 * (navigation-policy, notebook-cookie, certificate-pin, partition, load-failure-page); this
 * file applies them to Electron's session and window objects. It can only be type-checked here.
 *
 * A notebook window shows a remote page with the user's token in a cookie, so it gets the
 * strictest setup: its own partition per profile, sandboxed, no preload, no Node, navigation
 * locked to the notebook's origin, permissions denied, and the self-signed certificate trusted
 * only for the Sandbox, by its pinned fingerprint.
 */
import { BrowserWindow, nativeImage, session, shell, type Session, type WebContents, type WebPreferences } from 'electron'
import { checkExternalUrl } from '../commands/app'
import type { NotebookWindowRequest } from '../core-types'
import { isPinnedCertificate, pinFor, type CertificatePin } from './certificate-pin'
import { loadFailurePage } from './load-failure-page'
import { notebookNavigation } from './navigation-policy'
import { notebookCookie } from './notebook-cookie'
import { notebookPartition } from './partition'
import { windowIconPng } from '../windows/window-icon'

export interface NotebookWindows {
  /** Opens (or focuses) the instance's notebook window, signed in with the request's cookie. */
  open(request: NotebookWindowRequest): Promise<void>
  /** After a re-login: the new token into the cookie of that profile's open notebook windows. */
  refreshCookies(profileId: string, token: string): Promise<void>
  closeAll(): void
}

interface OpenNotebook {
  window: BrowserWindow
  request: NotebookWindowRequest
}

/** Chromium's verify results: 0 trust, -3 use Chromium's own verdict. */
const TRUST = 0
const CHROMIUM_DECIDES = -3

export function createNotebookWindows(log: (line: string) => void = () => {}): NotebookWindows {
  const open = new Map<string, OpenNotebook>()
  /** Per partition: the pin its verify proc checks (set at each open; the Sandbox may restart). */
  const pins = new Map<string, CertificatePin | undefined>()
  const configured = new Set<string>()

  const sessionFor = (profileId: string): Session => {
    const partition = notebookPartition(profileId)
    const ses = session.fromPartition(partition)
    if (!configured.has(partition)) {
      configured.add(partition)
      ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
      ses.setPermissionCheckHandler(() => false)
      ses.setDevicePermissionHandler(() => false)
      // why: trusts only the Sandbox's own certificate, pinned by fingerprint; all else is Chromium's call (-3).
      ses.setCertificateVerifyProc((request, callback) => { // eng-disable CERTIFICATE_VERIFY_PROC_JS_CHECK
        callback(isPinnedCertificate(request.hostname, request.certificate.fingerprint, pins.get(partition)) ? TRUST : CHROMIUM_DECIDES)
      })
    }
    return ses
  }

  const openExternally = (url: string): void => {
    // why: only http(s) links that notebookNavigation classed as 'external' reach this, and checkExternalUrl checks again.
    const opening = Promise.resolve().then(() => shell.openExternal(checkExternalUrl(url))) // eng-disable OPEN_EXTERNAL_JS_CHECK
    opening.catch((error: Error) => log(`notebook: could not open a link in the browser: ${error.message}`))
  }

  /** Keeps a notebook's webContents (and the windows it opens) on its origin. */
  const guard = (contents: WebContents, origin: string, ses: Session): void => {
    const leave = (event: { preventDefault(): void }, url: string, mainFrame: boolean): void => {
      const decision = notebookNavigation(origin, url)
      if (decision === 'allow') return
      event.preventDefault()
      // Only a main-frame navigation is the user following a link; a sub-frame elsewhere is just blocked.
      if (decision === 'external' && mainFrame) openExternally(url)
      else if (decision === 'deny') log(`notebook: blocked a navigation to a ${safeScheme(url)} address`)
    }
    contents.on('will-navigate', (event) => leave(event, event.url, true))
    contents.on('will-redirect', (event) => leave(event, event.url, event.isMainFrame))
    contents.on('will-frame-navigate', (event) => {
      if (!event.isMainFrame) leave(event, event.url, false)
    })
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(({ url }) => {
      const decision = notebookNavigation(origin, url)
      if (decision === 'allow') return { action: 'allow', overrideBrowserWindowOptions: { webPreferences: securePreferences(ses) } }
      if (decision === 'external') openExternally(url)
      return { action: 'deny' }
    })
    contents.on('did-create-window', (child) => guard(child.webContents, origin, ses))
  }

  return {
    async open(request) {
      const key = `${request.profileId}\n${request.instanceId}`
      const existing = open.get(key)
      const ses = sessionFor(request.profileId)
      pins.set(notebookPartition(request.profileId), pinFor(request.url, request.pinnedCertificateSha256))
      // Set before any load: the first request must already carry the token.
      await ses.cookies.set(request.cookie)
      if (existing && !existing.window.isDestroyed()) {
        if (new URL(existing.request.url).origin === new URL(request.url).origin) {
          existing.request = request
          if (existing.window.isMinimized()) existing.window.restore()
          existing.window.focus()
          return
        }
        // The notebook moved (e.g. the Sandbox restarted on another port): its guard is for the
        // old origin, so the old window goes and a new one is made for the new address.
        open.delete(key)
        existing.window.close()
      }
      const iconPng = windowIconPng(process.platform)
      const window = new BrowserWindow({
        ...(iconPng ? { icon: nativeImage.createFromBuffer(iconPng) } : {}),
        title: `${request.instanceName} — Notebook`,
        width: 1200,
        height: 820,
        show: false,
        autoHideMenuBar: true,
        // Spelled out here (not only in securePreferences) so reviewers and the security gate see them.
        webPreferences: { ...securePreferences(ses), sandbox: true, contextIsolation: true, disableBlinkFeatures: 'Auxclick' }
      })
      open.set(key, { window, request })
      window.on('closed', () => {
        if (open.get(key)?.window === window) open.delete(key)
      })
      window.once('ready-to-show', () => window.show())
      // Keep our title (the page's own <title> would replace it): the user finds the window by instance.
      window.on('page-title-updated', (event) => event.preventDefault())
      guard(window.webContents, new URL(request.url).origin, ses)
      try {
        await window.loadURL(request.url)
      } catch (error) {
        const code = (error as { code?: string }).code
        if (code === 'ERR_ABORTED' || window.isDestroyed()) return // replaced by a newer navigation, or closed
        log(`notebook ${request.instanceId}: did not load (${code ?? 'unknown error'})`)
        await window.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(loadFailurePage(request.instanceName, code))}`)
        window.show()
      }
    },

    async refreshCookies(profileId, token) {
      const ses = sessionFor(profileId)
      const updates: Promise<void>[] = []
      for (const entry of open.values()) {
        if (entry.request.profileId !== profileId || entry.window.isDestroyed()) continue
        const cookie = notebookCookie(entry.request.url, token)
        entry.request = { ...entry.request, cookie }
        // Not reloaded: the page keeps its state; its next request carries the new token.
        updates.push(ses.cookies.set(cookie))
      }
      await Promise.all(updates)
    },

    closeAll() {
      for (const entry of open.values()) if (!entry.window.isDestroyed()) entry.window.close()
      open.clear()
    }
  }
}

function securePreferences(ses: Session): WebPreferences {
  return {
    session: ses,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    nodeIntegrationInWorker: false,
    webviewTag: false,
    safeDialogs: true,
    navigateOnDragDrop: false,
    spellcheck: false,
    // Middle-click would otherwise open links in new windows, around setWindowOpenHandler.
    disableBlinkFeatures: 'Auxclick'
  }
}

/** For the log: the scheme only, never the whole URL (it may carry tokens in its query). */
function safeScheme(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(url)
  return match ? match[1]!.toLowerCase() : 'malformed'
}
