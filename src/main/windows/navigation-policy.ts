/**
 * Where the app window may go. It shows only our own page; a link to the web opens in the
 * system browser instead; everything else (file:, data:, javascript:, custom schemes) is
 * refused. Pure, with a table test; main-window-adapter.ts applies it to `will-navigate`,
 * `setWindowOpenHandler` and the permission handlers.
 */

export interface AppPage {
  /** file:// URL of the built renderer page. */
  fileUrl?: string
  /** The dev server's origin while developing. */
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
  if (url.protocol === 'file:' && app.fileUrl !== undefined) {
    const page = new URL(app.fileUrl)
    return url.host === page.host && url.pathname === page.pathname
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
 * from our page and is one the app uses. Writing the clipboard is the terminal's copy;
 * `fileSystem` is the files panel saving a download into the folder the user just picked in the
 * OS dialog (the File System Access API asks it only for a handle the user chose).
 */
const ALLOWED_FOR_OUR_PAGE = new Set(['clipboard-sanitized-write', 'fileSystem'])

export function permissionDecision(permission: string, requestingUrl: string, app: AppPage): boolean {
  return ALLOWED_FOR_OUR_PAGE.has(permission) && isOurPage(requestingUrl, app)
}

/**
 * The Content-Security-Policy for our pages, also sent as a response header (the page carries
 * the same as a meta tag). Inline styles are allowed because xterm and Svelte transitions set
 * them; scripts only from our origin. The dev server needs its origin and HMR socket.
 */
export function contentSecurityPolicy(app: AppPage): string {
  const dev = app.devOrigin !== undefined ? new URL(app.devOrigin) : undefined
  const hmr = dev ? ` ws://${dev.host}` : ''
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${hmr}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "frame-src 'none'"
  ].join('; ')
}
