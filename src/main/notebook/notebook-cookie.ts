/**
 * The `AccessToken` cookie a notebook window carries (spec: the notebook request must carry it).
 *
 * - Host-only (no `domain`): Electron would widen a domain cookie to every subdomain
 *   (`.example.com`), and the token must reach exactly the notebook's host.
 * - `secure`: only ever sent over HTTPS. `httpOnly`: the page's scripts cannot read the token.
 * - `sameSite: 'strict'`: the window only ever shows this one origin (other links leave for the
 *   system browser), so every request that should carry the token is same-site or the window's
 *   own top-level load (which Chromium treats as same-site). Strict keeps it off any cross-site
 *   request a page might trigger, at no cost here; 'lax' would still send it on a cross-site
 *   top-level GET.
 * - No expiry: a session cookie, never written to the partition's disk store; main sets it again
 *   before each load and after a re-login.
 */
import { isCookieValue } from '../cloud/cookie-value'

export interface NotebookCookie {
  url: string
  name: 'AccessToken'
  value: string
  secure: true
  httpOnly: true
  sameSite: 'strict'
}

export function notebookCookie(notebookUrl: string, token: string): NotebookCookie {
  const url = new URL(notebookUrl)
  if (url.protocol !== 'https:') throw new Error('The notebook cookie is only ever set for an https:// address.')
  // Checked so a malformed token cannot inject attributes (`; Domain=…`) into the cookie. The
  // message never repeats the token.
  if (!isCookieValue(token)) throw new Error('The session token has characters a cookie cannot carry; sign in again.')
  return { url: url.origin, name: 'AccessToken', value: token, secure: true, httpOnly: true, sameSite: 'strict' }
}

/** How the cookie goes over the wire in a Cookie request header (what the emulator reads). */
export function cookieHeader(cookie: Pick<NotebookCookie, 'name' | 'value'>): string {
  return `${cookie.name}=${cookie.value}`
}
