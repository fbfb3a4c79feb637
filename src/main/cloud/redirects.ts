/**
 * Where the client may follow a redirect (301/302/307/308) from the API: only within the same
 * site, which is the same scheme and port and the same host give or take a leading `www.` (the
 * real service answers at both hpc-ai.com and www.hpc-ai.com, hpcai-api-facts.md 1.1). The
 * request is sent again with its method and body, and with the credential, which is why nothing
 * else qualifies: a redirect elsewhere would carry the token or API key to another host.
 * Anything else is refused with the address it pointed to, so the user can fix the profile.
 * Pure: the answer's Location and where the request went in, a decision out.
 */

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 307, 308])

/** Hops followed for one call; more is a loop. */
export const MAX_REDIRECTS = 3

export type RedirectDecision =
  { follow: true; url: URL } | { follow: false; reason: 'no-location' | 'other-site' | 'too-many'; shown: string }

/** The host without one leading `www.`, lower-case: what "the same site" compares. */
function siteHost(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, '')
}

/** Whether two URLs are the same site: same scheme and port, hosts equal but for a leading `www.`. */
export function sameSite(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.port === b.port && siteHost(a.hostname) === siteHost(b.hostname)
}

/** Server text, shown in a message: one line, bounded. */
function shownLocation(location: string): string {
  const line = location.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
  return line.length > 200 ? `${line.slice(0, 199)}…` : line
}

export function decideRedirect(location: string | undefined, from: URL, hops: number): RedirectDecision {
  if (location === undefined || location.trim() === '') return { follow: false, reason: 'no-location', shown: '' }
  let url: URL
  try {
    url = new URL(location.trim(), from)
  } catch {
    return { follow: false, reason: 'other-site', shown: shownLocation(location) }
  }
  // Credentials in the address, or another site: the request (and its credential) stays here.
  if (url.username || url.password || !sameSite(from, url)) return { follow: false, reason: 'other-site', shown: shownLocation(url.href) }
  if (hops >= MAX_REDIRECTS) return { follow: false, reason: 'too-many', shown: shownLocation(url.href) }
  url.hash = ''
  return { follow: true, url }
}
