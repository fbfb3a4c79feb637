/**
 * The proxy sign-in dialog's store (proxy-auth.svelte.ts): what main asks shows, a refusal is
 * said beside the password while the dialog stays, an accepted pair closes it, and the password
 * is never kept in the window's state. The dialog itself is not driven by a Playwright spec: the
 * web shell's Sandbox is on loopback, which always goes direct, and the shell has no way to
 * resolve a made-up cloud name through a test proxy (network.test.ts does that for main).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ProxyAuthState } from '../../../shared/contract-proxy'

const bridge = await vi.hoisted(async () => (await import('../testing/fake-bridge')).createFakeBridge())
vi.mock('../lib/bridge', () => bridge.module)

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))
const ASKING: ProxyAuthState = { asking: { proxy: 'proxy.corp:3128', username: '', rejected: false } }
const INPUT = { proxy: 'proxy.corp:3128', username: 'alice', password: 'hunter2', remember: true }

beforeEach(() => {
  bridge.reset()
  vi.resetModules()
})

describe('the proxy sign-in dialog', () => {
  it('shows the proxy main asks about, and says Cloud Tray retries by itself', async () => {
    const { proxyAuth, proxyQuestionText } = await import('./proxy-auth.svelte')
    proxyAuth.listen()
    bridge.emit('proxy.auth', ASKING)
    expect(proxyAuth.asking).toEqual(ASKING.asking)
    const text = proxyQuestionText(ASKING.asking!)
    expect(text.description).toContain('The proxy "proxy.corp:3128" on your network asks for a user name and password')
    expect(text.description).toContain('Cloud Tray retries by itself')
    expect(text.refused).toBeNull()
    expect(proxyQuestionText({ ...ASKING.asking!, rejected: true }).refused).toBe(
      'The proxy did not accept that user name and password. Enter them again.'
    )
  })

  it('a refused password is said at the password field, the question stays, and the password is not kept', async () => {
    const { proxyAuth } = await import('./proxy-auth.svelte')
    proxyAuth.listen()
    bridge.emit('proxy.auth', ASKING)
    const answer = proxyAuth.signIn(INPUT)
    bridge.refuse('proxy.signIn', {
      kind: 'bad-credentials',
      field: 'password',
      message: 'The proxy did not accept that user name and password. Check them (they are often your company sign-in) and try again.'
    })
    expect(await answer).toEqual({
      field: 'password',
      text: 'The proxy did not accept that user name and password. Check them (they are often your company sign-in) and try again.'
    })
    expect(proxyAuth.asking).toEqual(ASKING.asking)
    expect(JSON.stringify(proxyAuth)).not.toContain('hunter2')
  })

  it('accepted: the dialog closes; a proxy it could not reach is said under the form', async () => {
    const { proxyAuth } = await import('./proxy-auth.svelte')
    proxyAuth.listen()
    bridge.emit('proxy.auth', ASKING)
    const unreachable = proxyAuth.signIn(INPUT)
    bridge.refuse('proxy.signIn', { kind: 'network', message: 'Could not reach the proxy "proxy.corp:3128" …' })
    expect((await unreachable)?.field).toBeNull()

    const accepted = proxyAuth.signIn(INPUT)
    bridge.answer('proxy.signIn', { asking: null })
    expect(await accepted).toBeNull()
    expect(proxyAuth.asking).toBeNull()
  })

  it('Cancel tells main, which stops asking', async () => {
    const { proxyAuth } = await import('./proxy-auth.svelte')
    proxyAuth.listen()
    bridge.emit('proxy.auth', ASKING)
    const cancelled = proxyAuth.cancel('proxy.corp:3128')
    expect(bridge.calls).toEqual(['proxy.cancel'])
    bridge.answer('proxy.cancel', { asking: null })
    await cancelled
    await settle()
    expect(proxyAuth.asking).toBeNull()
  })
})
