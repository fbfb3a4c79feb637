/**
 * Where the app window may go. It shows only our own page; a link to the web opens in the
 * system browser instead; everything else (file:, data:, javascript:, custom schemes) is
 * refused. Pure, with a table test; main-window-adapter.ts applies it to `will-navigate`,
 * `setWindowOpenHandler` and the permission handlers.
 */
import { contentSecurityPolicy as policyWith } from '../../shared/content-security-policy'

export interface AppPage {
  /** The built page on the app:// scheme (app-protocol.ts: APP_PAGE_URL). */
  pageUrl?: string
  /** The dev server's origin while developing (never in a packaged app). */
  devOrigin?: string
}

export type NavigationDecision = 'allow' | 'open-external' | 'deny'

export function isOurPage(target: string, app: AppPage): boolean {
  let url: URL
  try {
    url = new URL(target)
  } catch {
    return false
  }
  if (app.pageUrl !== undefined && url.protocol !== 'http:' && url.protocol !== 'https:') {
    // A custom scheme's origin is opaque to Node's URL: compare scheme, host and document (not the #route).
    const page = new URL(app.pageUrl)
    return url.protocol === page.protocol && url.host === page.host && url.pathname === page.pathname && !url.username
  }
  if ((url.protocol === 'http:' || url.protocol === 'https:') && app.devOrigin !== undefined) {
    return url.origin === new URL(app.devOrigin).origin
  }
  return false
}

/** `will-navigate` / `will-redirect` in the app window. */
export function mainWindowNavigation(target: string, app: AppPage): NavigationDecision {
  if (isOurPage(target, app)) return 'allow'
  return isWebLink(target) ? 'open-external' : 'deny'
}

/** `window.open` and target=_blank: never a new Electron window; web links go to the browser. */
export function windowOpenDecision(target: string): Exclude<NavigationDecision, 'allow'> {
  return isWebLink(target) ? 'open-external' : 'deny'
}

function isWebLink(target: string): boolean {
  try {
    const url = new URL(target)
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password
  } catch {
    return false
  }
}

/**
 * Permission requests (camera, notifications, geolocation, …): denied unless the request comes
 * from our page and is one the app uses. Writing the clipboard is the terminal's copy. Not
 * `fileSystem`: in the app, main picks the download folder and writes into it (disk-sink.ts);
 * only the web shell's page writes files itself, and Electron's handler is not in that path.
 */
const ALLOWED_FOR_OUR_PAGE = new Set(['clipboard-sanitized-write'])

export function permissionDecision(permission: string, requestingUrl: string, app: AppPage): boolean {
  return ALLOWED_FOR_OUR_PAGE.has(permission) && isOurPage(requestingUrl, app)
}

/**
 * The Content-Security-Policy for our page (src/shared/content-security-policy.ts, one source):
 * the app:// scheme sends it as a header; the dev server's page also needs its HMR socket.
 */
export function contentSecurityPolicy(app: AppPage): string {
  const dev = app.devOrigin !== undefined ? new URL(app.devOrigin) : undefined
  return policyWith({ connect: dev ? [`ws://${dev.host}`] : [] })
}
