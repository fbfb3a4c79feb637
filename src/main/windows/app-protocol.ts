/**
 * The app:// scheme the app window's page is served from, instead of file:// (Electron's security
 * checklist, item 18): a page on a custom scheme has its own origin, so `'self'` in its policy
 * no longer matches every file on the disk, and the `GrantFileProtocolExtraPrivileges` fuse can
 * be off (scripts/after-pack-fuses.cjs). Pure: app-protocol-adapter.ts registers the scheme and
 * answers requests with what `appResponse` decides.
 *
 * Only files inside the built renderer folder are served, by GET; anything else is a 404 (a
 * path that tries to leave the folder included). The page itself carries the Content-Security-
 * Policy as a header, which applies to a custom scheme (it never did for file://).
 */
import { extname, isAbsolute, relative, resolve, sep } from 'node:path'
import { contentSecurityPolicy } from '../../shared/content-security-policy'
import { CONTENT_TYPES } from '../../shared/node/content-types'

export const APP_SCHEME = 'app'
export const APP_HOST = 'cloud-tray'
/** The app window's page. */
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/**
 * Standard (relative URLs, an origin of its own, web storage), secure (a secure context, as the
 * clipboard needs), fetch for the page's module scripts, V8's code cache.
 * Not `bypassCSP`, not service workers, not CORS for anyone else.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, codeCache: true } as const

export type AppAnswer =
  { status: 200; file: string; headers: Record<string, string> } | { status: 404 | 405; headers: Record<string, string> }

/** The policy the page is held to (the header; the build puts the same in its meta tag). */
export const APP_PAGE_POLICY = contentSecurityPolicy()

/** What to answer for a request to the app:// scheme, given the built renderer folder. */
export function appResponse(rendererDir: string, method: string, requestUrl: string): AppAnswer {
  const plain = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, headers: plain }
  const file = appFile(rendererDir, requestUrl)
  if (!file) return { status: 404, headers: plain }
  const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
  return {
    status: 200,
    file,
    headers: {
      'Content-Type': type,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
      ...(type.startsWith('text/html') ? { 'Content-Security-Policy': APP_PAGE_POLICY } : {})
    }
  }
}

/** The file a request names inside `rendererDir`, or null (another host, a path leaving the folder). */
export function appFile(rendererDir: string, requestUrl: string): string | null {
  let url: URL
  try {
    url = new URL(requestUrl)
  } catch {
    return null
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null
  let path: string
  try {
    path = decodeURIComponent(url.pathname)
  } catch {
    return null
  }
  if (path.includes('\0')) return null
  const wanted = path === '/' || path === '' ? 'index.html' : path.replace(/^\/+/, '')
  const root = resolve(rendererDir)
  const full = resolve(root, wanted)
  const inside = relative(root, full)
  if (!inside || inside.startsWith('..') || isAbsolute(inside) || inside.split(sep).includes('..')) return null
  return full
}
