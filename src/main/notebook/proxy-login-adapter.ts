/**
 * Electron's `login` event, for every window's requests (the notebooks'): decided by
 * proxy-login.ts, answered here. Thin on purpose: what to do is the pure function's.
 */
import type { App, AuthInfo, AuthenticationResponseDetails, Event } from 'electron'
import { proxyLoginDecision } from './proxy-login'

export interface ProxyLoginDesk {
  proxyCredential(hostPort: string): { username: string; password: string } | undefined
  proxyChallenged(proxyUri: string, target: string, refusedGiven: boolean): void
}

type LoginListener = (
  event: Event,
  webContents: unknown,
  details: AuthenticationResponseDetails,
  authInfo: AuthInfo,
  callback: (username?: string, password?: string) => void
) => void

export function answerProxyLogins(app: Pick<App, 'on'>, desk: ProxyLoginDesk): void {
  const listener: LoginListener = (event, _webContents, details, authInfo, callback) => {
    const decision = proxyLoginDecision(authInfo, details.firstAuthAttempt, (hostPort) => desk.proxyCredential(hostPort))
    if (decision.kind === 'answer') {
      event.preventDefault()
      callback(decision.username, decision.password)
      return
    }
    // Electron's default cancels the request; the main window asks, so the next open gets through.
    if (decision.kind === 'ask') desk.proxyChallenged(`http://${decision.proxy}`, originOf(details.url), decision.refusedGiven)
  }
  app.on('login', listener as Parameters<App['on']>[1])
}

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}
