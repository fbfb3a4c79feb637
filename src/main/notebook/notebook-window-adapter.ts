/**
 * Notebook windows in Electron: glue only. Every decision is a pure, tested function
 * (navigation-policy, notebook-cookie, certificate-pin, partition, opening-page,
 * load-failure-page, zoom-keys, windows/leave-policy); this file applies them to Electron's
 * session and window objects.
 *
 * A notebook window shows a remote page with the user's token in a cookie, so it gets the
 * strictest setup: its own partition per profile, sandboxed, no preload, no Node, navigation
 * locked to the notebook's origin, permissions denied, and the self-signed certificate trusted
 * only for the Sandbox, by its pinned fingerprint. Pop-ups the page opens on its own origin are
 * notebook windows too: tracked, guarded and closed with the others.
 *
 * A page with unsaved work refuses to unload (JupyterLab's `beforeunload`); Electron then emits
 * `will-prevent-unload` and, unless main says otherwise, cancels the close. Closing one window,
 * the user is asked; closing many (Quit, sign-out), the windows that refuse are reported so the
 * caller asks once for all.
 *
 * A click on "Open notebook" always shows a window: the notebook's page when it is ready, or
 * after SHOW_ANYWAY_MS whatever it shows then (the page's own loading state, or our "opening"
 * page, loaded before the notebook so the window is never blank while its server has not
 * answered), and what went wrong, in the user's words, when the page does not load.
 */
import { BrowserWindow, dialog, nativeImage, session, shell, type Session, type WebContents, type WebPreferences } from 'electron'
import { systemClock, type Clock } from '../../shared/clock'
import { checkExternalUrl } from '../windows/external-links'
import type { NotebookWindowRequest } from '../core-types'
import { isPinnedCertificate, pinFor, type CertificatePin } from './certificate-pin'
import { dataUrl } from './html'
import { loadFailurePage } from './load-failure-page'
import { notebookNavigation, notebookPermission } from './navigation-policy'
import { notebookCookie } from './notebook-cookie'
import { notebookPartition } from './partition'
import { openingPage } from './opening-page'
import { nextZoomFactor, zoomKey } from './zoom-keys'
import { windowIconPng } from '../windows/window-icon'
import { leaveAnswer, leaveQuestion } from '../windows/leave-policy'

export interface NotebookWindows {
  /** Opens (or focuses) the instance's notebook window, signed in with the request's cookie. */
  open(request: NotebookWindowRequest): Promise<void>
  /** After a re-login: the new token into the cookie of that profile's open notebook windows. */
  refreshCookies(profileId: string, token: string): Promise<void>
  /**
   * Asks every notebook window (pop-ups too) of `profileId`, or of every profile, to close.
   * Windows whose page refuses to unload stay open; resolves with their titles.
   */
  closeAll(profileId?: string): Promise<string[]>
  /** Closes them at once, without asking their pages (the user chose to leave). */
  destroyAll(profileId?: string): void
  /** The profile's sign-in is over: its windows go at once, and its partition forgets the cookie and its storage. */
  endAccess(profileId: string): Promise<void>
}

interface OpenNotebook {
  window: BrowserWindow
  request: NotebookWindowRequest
  /** Shows the window, once (a window not yet shown waits for its page, or SHOW_ANYWAY_MS). */
  reveal: () => void
}

/** Every notebook window and pop-up, with what closing it needs. */
interface TrackedWindow {
  profileId: string
  title: string
  /** Between `close` and the page's answer: a refusal then is the user's close being refused. */
  closing: boolean
  /** Set while closeAll waits for this window: told whether it closed or its page refused. */
  answer?: (outcome: 'closed' | 'refused') => void
  /** The page's last main-frame navigation on its own origin (a link inside the notebook), to make again once the user chose to leave. */
  lastNavigation?: string
  /** The user chose to leave the page: the next unload refusal is overridden once. */
  leaving?: boolean
}

/** Chromium's verify results: 0 trust, -3 use Chromium's own verdict. */
const TRUST = 0
const CHROMIUM_DECIDES = -3
/** A page whose renderer does not answer its beforeunload in this time counts as refusing (Electron's own unresponsive mark). */
const CLOSE_ANSWER_MS = 5_000
/**
 * A notebook window whose page is not ready this long after the click is shown anyway: long
 * enough that a page that is quick to come shows up whole, short enough that the click is seen
 * to have done something while a slow server (or one hanging in its TLS handshake) keeps it waiting.
 */
export const SHOW_ANYWAY_MS = 1_000

/** `clock` times the show-anyway wait (a test's ManualClock); `platform` picks the zoom keys' modifier (⌘ or Ctrl). */
export function createNotebookWindows(
  log: (line: string) => void = () => {},
  clock: Clock = systemClock(),
  platform: NodeJS.Platform = process.platform
): NotebookWindows {
  const open = new Map<string, OpenNotebook>()
  const tracked = new Map<BrowserWindow, TrackedWindow>()
  /** Per partition: the pin its verify proc checks (set at each open; the Sandbox may restart). */
  const pins = new Map<string, CertificatePin | undefined>()
  const configured = new Set<string>()
  /** Per partition: the origins its AccessToken cookie was set for, to remove it at sign-out. */
  const cookieUrls = new Map<string, Set<string>>()
  /** Per partition: an end of access still clearing it; an open waits, so its new cookie is not cleared. */
  const clearing = new Map<string, Promise<void>>()

  const sessionFor = (profileId: string): Session => {
    const partition = notebookPartition(profileId)
    const ses = session.fromPartition(partition)
    if (!configured.has(partition)) {
      configured.add(partition)
      // The notebook's own page may write the clipboard and go fullscreen; nothing else, from nowhere else.
      ses.setPermissionRequestHandler((contents, permission, callback, details) =>
        callback(notebookPermission(permission, details.requestingUrl, contents.getURL(), details.isMainFrame))
      )
      ses.setPermissionCheckHandler((contents, permission, _origin, details) =>
        notebookPermission(permission, details.requestingUrl, contents?.getURL() ?? '', details.isMainFrame)
      )
      ses.setDevicePermissionHandler(() => false)
      const verify: Parameters<typeof ses.setCertificateVerifyProc>[0] = (request, callback) =>
        callback(isPinnedCertificate(request.hostname, request.certificate.fingerprint, pins.get(partition)) ? TRUST : CHROMIUM_DECIDES)
      // why: trusts only the Sandbox's own certificate, pinned by fingerprint; all else is Chromium's call (-3).
      ses.setCertificateVerifyProc(verify) // eng-disable CERTIFICATE_VERIFY_PROC_JS_CHECK
    }
    return ses
  }

  const openExternally = (url: string): void => {
    // why: only http(s) links that notebookNavigation classed as 'external' reach this, and checkExternalUrl checks again.
    const opening = Promise.resolve().then(() => shell.openExternal(checkExternalUrl(url))) // eng-disable OPEN_EXTERNAL_JS_CHECK
    opening.catch((error: Error) => log(`notebook: could not open a link in the browser: ${error.message}`))
  }

  const setCookie = async (ses: Session, partition: string, cookie: NotebookWindowRequest['cookie']): Promise<void> => {
    await ses.cookies.set(cookie)
    const urls = cookieUrls.get(partition) ?? new Set<string>()
    urls.add(cookie.url)
    cookieUrls.set(partition, urls)
  }

  /** Closing, refusing pages and the user's answer, for a notebook window or one of its pop-ups. */
  const track = (window: BrowserWindow, profileId: string, title: string): void => {
    const entry: TrackedWindow = { profileId, title, closing: false }
    tracked.set(window, entry)
    window.on('close', () => {
      entry.closing = true
    })
    window.on('closed', () => {
      tracked.delete(window)
      entry.answer?.('closed')
    })
    window.webContents.on('will-navigate', (event) => {
      entry.lastNavigation = event.url
    })
    window.webContents.on('did-navigate', () => {
      entry.lastNavigation = undefined
    })
    window.webContents.on('will-prevent-unload', (event) => {
      if (entry.answer) {
        // Part of a Quit or sign-out: the page stays; the caller asks once for every such window.
        entry.closing = false
        entry.answer('refused')
        return
      }
      if (entry.closing) {
        // The user closed this window and the page refused: the close is cancelled; ask, and close if they leave.
        entry.closing = false
        void dialog.showMessageBox(window, leaveQuestion('close-window', [entry.title])!).then(({ response }) => {
          if (leaveAnswer(response) === 'leave' && !window.isDestroyed()) window.destroy()
        })
        return
      }
      // Leaving the page inside the window (a reload, a link). The page stays for now, and the
      // question is asked without blocking main (a synchronous box froze every terminal and
      // tunnel, whose SSH runs here); if the user leaves, the navigation is made again and let through.
      if (entry.leaving) {
        entry.leaving = false
        event.preventDefault()
        return
      }
      const target = entry.lastNavigation
      void dialog.showMessageBox(window, leaveQuestion('leave-page', [entry.title])!).then(({ response }) => {
        if (leaveAnswer(response) !== 'leave' || window.isDestroyed()) return
        entry.leaving = true
        if (target) void window.webContents.loadURL(target).catch(() => undefined)
        else window.webContents.reload()
      })
    })
  }

  /** Ctrl/⌘ with =, +, - and 0 zoom the page by Chromium's steps (zoom-keys.ts); every other key goes to the page. */
  const zoomKeys = (contents: WebContents): void => {
    contents.on('before-input-event', (event, input) => {
      const action = zoomKey(input, platform)
      if (!action) return
      event.preventDefault()
      contents.setZoomFactor(nextZoomFactor(contents.getZoomFactor(), action))
    })
  }

  const windowsOf = (profileId?: string): [BrowserWindow, TrackedWindow][] =>
    [...tracked].filter(([window, entry]) => !window.isDestroyed() && (profileId === undefined || entry.profileId === profileId))

  const attemptClose = (window: BrowserWindow, entry: TrackedWindow): Promise<'closed' | 'refused'> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => finish('refused'), CLOSE_ANSWER_MS)
      const finish = (outcome: 'closed' | 'refused'): void => {
        clearTimeout(timer)
        entry.answer = undefined
        resolve(outcome)
      }
      entry.answer = finish
      window.close()
    })

  const destroyAll = (profileId?: string): void => {
    for (const [window] of windowsOf(profileId)) window.destroy()
    for (const [key, entry] of open) if (profileId === undefined || entry.request.profileId === profileId) open.delete(key)
  }

  /** Keeps a notebook's webContents (and the windows it opens) on its origin. */
  const guard = (contents: WebContents, origin: string, ses: Session, owner: { profileId: string; title: string }): void => {
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
      // A pop-up outlives its opener (as a browser tab does): Electron would otherwise destroy it,
      // unsaved work and all, when the notebook window closes. It is tracked and closed with the rest.
      if (decision === 'allow')
        return { action: 'allow', outlivesOpener: true, overrideBrowserWindowOptions: { webPreferences: securePreferences(ses) } }
      if (decision === 'external') openExternally(url)
      return { action: 'deny' }
    })
    contents.on('did-create-window', (child) => {
      track(child, owner.profileId, owner.title)
      guard(child.webContents, origin, ses, owner)
      zoomKeys(child.webContents)
    })
  }

  return {
    async open(request) {
      const key = `${request.profileId}\n${request.instanceId}`
      const partition = notebookPartition(request.profileId)
      await clearing.get(partition)
      const existing = open.get(key)
      const ses = sessionFor(request.profileId)
      pins.set(partition, pinFor(request.url, request.pinnedCertificateSha256))
      // Set before any load: the first request must already carry the token.
      await setCookie(ses, partition, request.cookie)
      if (existing && !existing.window.isDestroyed()) {
        if (new URL(existing.request.url).origin === new URL(request.url).origin) {
          existing.request = request
          // Asked again while its page keeps it waiting: shown now, with whatever it shows.
          existing.reveal()
          if (existing.window.isMinimized()) existing.window.restore()
          existing.window.focus()
          return
        }
        // The notebook moved (e.g. the Sandbox restarted on another port): its guard is for the
        // old origin, so the old window goes and a new one is made for the new address. The old
        // page can no longer reach its server, so there is nothing it could still save.
        open.delete(key)
        existing.window.destroy()
      }
      const iconPng = windowIconPng(process.platform)
      const title = `${request.instanceName} — Notebook`
      const window = new BrowserWindow({
        ...(iconPng ? { icon: nativeImage.createFromBuffer(iconPng) } : {}),
        title,
        width: 1200,
        height: 820,
        show: false,
        autoHideMenuBar: true,
        // Spelled out here (not only in securePreferences) so reviewers and the security gate see them.
        webPreferences: { ...securePreferences(ses), sandbox: true, contextIsolation: true, disableBlinkFeatures: 'Auxclick' }
      })
      let shown = false
      const reveal = (): void => {
        if (shown || window.isDestroyed()) return
        shown = true
        clock.clearTimeout(showAnyway)
        window.show()
      }
      const showAnyway = clock.setTimeout(reveal, SHOW_ANYWAY_MS)
      open.set(key, { window, request, reveal })
      track(window, request.profileId, title)
      window.on('closed', () => {
        clock.clearTimeout(showAnyway)
        if (open.get(key)?.window === window) open.delete(key)
      })
      // Keep our title (the page's own <title> would replace it): the user finds the window by instance.
      window.on('page-title-updated', (event) => event.preventDefault())
      guard(window.webContents, new URL(request.url).origin, ses, { profileId: request.profileId, title })
      zoomKeys(window.webContents)
      // Our "opening" page first (local, no script, no request), so the window shown before the
      // notebook answers is never blank. Not `ready-to-show`: it would come for this page at once.
      await window.loadURL(dataUrl(openingPage(request.instanceName))).catch(() => undefined)
      if (window.isDestroyed()) return // closed meanwhile (sign-out, Quit)
      // The next page (the notebook, or what went wrong) is ready: shown at once. Its entry is
      // then the only one, so Back (a mouse's back button) cannot return to "opening".
      window.webContents.once('dom-ready', reveal)
      window.webContents.once('did-navigate', () => {
        if (!window.isDestroyed()) window.webContents.navigationHistory.clear()
      })
      try {
        await window.loadURL(request.url)
      } catch (error) {
        const code = (error as { code?: string }).code
        if (code === 'ERR_ABORTED' || window.isDestroyed()) return // replaced by a newer navigation, or closed
        log(`notebook ${request.instanceId}: did not load (${code ?? 'unknown error'})`)
        await window.loadURL(dataUrl(loadFailurePage(request.instanceName, code)))
        reveal()
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
        updates.push(setCookie(ses, notebookPartition(profileId), cookie))
      }
      await Promise.all(updates)
    },

    async closeAll(profileId) {
      const outcomes = await Promise.all(
        windowsOf(profileId).map(async ([window, entry]) => ({ entry, outcome: await attemptClose(window, entry) }))
      )
      return [...new Set(outcomes.filter((o) => o.outcome === 'refused').map((o) => o.entry.title))]
    },

    destroyAll,

    async endAccess(profileId) {
      destroyAll(profileId)
      const partition = notebookPartition(profileId)
      const ses = session.fromPartition(partition)
      const ending = (async () => {
        const urls = [...(cookieUrls.get(partition) ?? [])]
        cookieUrls.delete(partition)
        await Promise.all(urls.map((url) => ses.cookies.remove(url, 'AccessToken')))
        // Everything the notebook pages kept (local storage, IndexedDB, service workers, cache):
        // the next account to use this profile starts clean.
        await ses.clearStorageData()
        await ses.clearCache()
      })()
      clearing.set(
        partition,
        ending.catch(() => undefined)
      )
      try {
        await ending
      } catch (error) {
        log(`notebook: could not clear the ${partition} partition: ${(error as Error).message}`)
      } finally {
        clearing.delete(partition)
      }
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
