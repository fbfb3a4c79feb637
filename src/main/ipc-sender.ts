/**
 * Who may speak the contract over Electron IPC: only the main frame of one of our app windows
 * showing our own page (app://cloud-tray/index.html, or the dev server's origin in development). A notebook
 * window, an iframe, or a page our window was somehow navigated to is refused. Pure, so the
 * rule is a table test; ipc.ts feeds it what Electron reports about each message.
 */

export interface SenderInfo {
  /** The sending webContents' id. */
  webContentsId: number
  /** True when the message comes from that webContents' main frame (not an iframe). */
  isMainFrame: boolean
  /** The sending frame's URL; undefined when the frame is gone. */
  url: string | undefined
}

export interface TrustedRenderer {
  /** webContents ids of our app windows (not notebook windows). */
  webContentsIds: ReadonlySet<number>
  /** The built page on the app:// scheme (windows/app-protocol.ts: APP_PAGE_URL). */
  pageUrl?: string
  /** The dev server's origin (ELECTRON_RENDERER_URL) while developing. */
  devOrigin?: string
}

export function isTrustedSender(sender: SenderInfo, trusted: TrustedRenderer): boolean {
  if (!trusted.webContentsIds.has(sender.webContentsId) || !sender.isMainFrame || !sender.url) return false
  let url: URL
  try {
    url = new URL(sender.url)
  } catch {
    return false
  }
  if (trusted.pageUrl !== undefined && url.protocol !== 'http:' && url.protocol !== 'https:') {
    // Compare the document, not the route: the page may use #/hash routes. (A custom scheme's
    // origin is opaque to Node's URL, so scheme and host are compared one by one.)
    const expected = new URL(trusted.pageUrl)
    return url.protocol === expected.protocol && url.host === expected.host && url.pathname === expected.pathname && !url.username
  }
  if (trusted.devOrigin !== undefined && (url.protocol === 'http:' || url.protocol === 'https:')) {
    return url.origin === new URL(trusted.devOrigin).origin
  }
  return false
}
