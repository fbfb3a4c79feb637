/**
 * What a notebook window does when Chromium meets a challenge (Electron's `login` event): a
 * proxy's (`isProxy`) is answered with the user name and password this run has for that proxy,
 * the ones the API client uses (network/proxy-auth.ts); without them, or when the proxy refused
 * them, the page's request is cancelled and the main window asks, so the next open gets through.
 * A server's own challenge (a notebook's basic auth, or anything a page leads to) is never
 * answered with proxy credentials: that would hand the company password to whatever asks. Pure.
 */

export interface LoginChallenge {
  isProxy: boolean
  host: string
  port: number
}

export type ProxyLoginDecision =
  /** Not a proxy's: Electron's default (cancel) stands. */
  | { kind: 'not-a-proxy' }
  | { kind: 'answer'; username: string; password: string }
  /** Cancel, and ask the main window (`refusedGiven`: the ones given were just refused). */
  | { kind: 'ask'; proxy: string; refusedGiven: boolean }

/** `host:port` as the API client names a proxy (IPv6 bracketed), the key of its credentials. */
export function challengeHostPort(challenge: LoginChallenge): string {
  const host = challenge.host.includes(':') && !challenge.host.startsWith('[') ? `[${challenge.host}]` : challenge.host
  return `${host.toLowerCase()}:${challenge.port}`
}

export function proxyLoginDecision(
  challenge: LoginChallenge,
  /** Chromium asks again after refused credentials: only the first attempt gets them. */
  firstAttempt: boolean,
  credentialFor: (hostPort: string) => { username: string; password: string } | undefined
): ProxyLoginDecision {
  if (!challenge.isProxy) return { kind: 'not-a-proxy' }
  const proxy = challengeHostPort(challenge)
  const credential = credentialFor(proxy)
  if (credential && firstAttempt) return { kind: 'answer', username: credential.username, password: credential.password }
  return { kind: 'ask', proxy, refusedGiven: credential !== undefined }
}
