/**
 * A notebook window's `login` event (proxy-login.ts, and its adapter on a structural stand-in for
 * Electron's `app`): a proxy's challenge gets the run's credentials for that proxy once; refused
 * or missing, the request is cancelled and the main window asks; a server's own challenge never
 * gets proxy credentials.
 */
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { answerProxyLogins } from './proxy-login-adapter'
import { challengeHostPort, proxyLoginDecision } from './proxy-login'

const ALICE = { username: 'alice', password: 'corp-secret' }
const given = (hostPort: string) => (hostPort === 'proxy.corp:3128' ? ALICE : undefined)

describe('the decision', () => {
  it('a proxy it has credentials for: answered with them', () => {
    expect(proxyLoginDecision({ isProxy: true, host: 'proxy.corp', port: 3128 }, true, given)).toEqual({ kind: 'answer', ...ALICE })
  })

  it('a proxy it has none for: cancelled, and the window asks', () => {
    expect(proxyLoginDecision({ isProxy: true, host: 'other.corp', port: 8080 }, true, given)).toEqual({
      kind: 'ask',
      proxy: 'other.corp:8080',
      refusedGiven: false
    })
  })

  it('Chromium asks again after the proxy refused them: not the same ones again, the window asks, told so', () => {
    expect(proxyLoginDecision({ isProxy: true, host: 'proxy.corp', port: 3128 }, false, given)).toEqual({
      kind: 'ask',
      proxy: 'proxy.corp:3128',
      refusedGiven: true
    })
  })

  it("a server's own basic-auth challenge at the proxy's very address gets no proxy credentials", () => {
    expect(proxyLoginDecision({ isProxy: false, host: 'proxy.corp', port: 3128 }, true, given)).toEqual({ kind: 'not-a-proxy' })
  })

  it('names a proxy as the API client does (IPv6 bracketed, host in lower case)', () => {
    expect(challengeHostPort({ isProxy: true, host: 'fd00::1', port: 3128 })).toBe('[fd00::1]:3128')
    expect(challengeHostPort({ isProxy: true, host: 'Proxy.Corp', port: 80 })).toBe('proxy.corp:80')
  })
})

describe("the adapter on Electron's app", () => {
  const rig = () => {
    const app = new EventEmitter()
    const challenged: unknown[][] = []
    answerProxyLogins(app as never, {
      proxyCredential: given,
      proxyChallenged: (...args) => challenged.push(args)
    })
    const login = (authInfo: { isProxy: boolean; host: string; port: number }, firstAuthAttempt = true) => {
      const event = { defaultPrevented: false, preventDefault: () => void (event.defaultPrevented = true) }
      const answers: unknown[][] = []
      app.emit(
        'login',
        event,
        null,
        { url: 'https://nb.example.com:8443/lab', firstAuthAttempt },
        { scheme: 'basic', realm: 'r', ...authInfo },
        (...args: unknown[]) => answers.push(args)
      )
      return { event, answers }
    }
    return { login, challenged }
  }

  it('answers a known proxy (default prevented, callback with the pair)', () => {
    const { login, challenged } = rig()
    const { event, answers } = login({ isProxy: true, host: 'proxy.corp', port: 3128 })
    expect([event.defaultPrevented, answers]).toEqual([true, [['alice', 'corp-secret']]])
    expect(challenged).toEqual([])
  })

  it("leaves an unknown proxy's challenge to Electron's cancel, and tells main which proxy and page", () => {
    const { login, challenged } = rig()
    const { event, answers } = login({ isProxy: true, host: 'other.corp', port: 8080 })
    expect([event.defaultPrevented, answers]).toEqual([false, []])
    expect(challenged).toEqual([['http://other.corp:8080', 'https://nb.example.com:8443', false]])
  })

  it("leaves a server's challenge alone entirely", () => {
    const { login, challenged } = rig()
    const { event, answers } = login({ isProxy: false, host: 'nb.example.com', port: 8443 })
    expect([event.defaultPrevented, answers, challenged]).toEqual([false, [], []])
  })
})
