/**
 * Signing in with a console API key (issue #15), in the core against the emulator: the key is
 * checked before it becomes a session, never expires on a timer, resumes after a restart from
 * the keychain, and a refusal says so; notebook pages ask for the password once.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCoreRig, type CoreRig } from '../testing/core-harness'
import { createMemoryKeychain } from './keychain'

const KEY = 'ct_demo-console-key-4242'

let rig: CoreRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

async function keyRig(keychain = createMemoryKeychain()): Promise<CoreRig> {
  rig = await createCoreRig({ keychain, emulator: { apiKeys: [{ username: 'demo', key: KEY }] } })
  return rig
}

const withKey = (apiKey = KEY, rememberMe = true) => ({ profileId: 'sandbox', username: 'demo', apiKey, rememberMe })

describe('API-key sign-in', () => {
  it('a wrong key is said on the form and never becomes a session', async () => {
    const r = await keyRig()
    const answer = await r.call('session.loginWithKey', withKey('ct_not-the-key'))
    expect(answer).toMatchObject({ ok: false, error: { kind: 'bad-credentials', message: expect.stringMatching(/refused this API key/) } })
    expect(await r.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-out' } })
    expect(r.of('session.expired')).toEqual([])
  })

  it('sends only the key, never expires on a timer, and resumes after a restart', async () => {
    const keychain = createMemoryKeychain()
    const r = await keyRig(keychain)
    const signedIn = await r.call('session.loginWithKey', withKey())
    expect(signedIn).toMatchObject({ ok: true, value: { status: 'signed-in', method: 'api-key', username: 'demo', remembered: true } })
    expect(signedIn.ok && signedIn.value.expiresAt).toBeUndefined()
    await r.emulator.control.seedInstances('demo', 1)
    expect((await r.call('instances.refresh')).ok).toBe(true)

    // Three days later (a token would have died twice): still signed in, never warned.
    for (let day = 0; day < 3; day++) {
      r.clock.advance(86_400_000)
      r.emulator.control.advance(86_400_000)
    }
    expect((await r.call('instances.refresh')).ok).toBe(true)
    expect(r.of('session.expiring')).toEqual([])
    expect(r.of('session').at(-1)).toMatchObject({ status: 'signed-in' })

    // Only in the keychain, beside where a token would go; no file holds it.
    expect(keychain.entries.get('sandbox/demo/api-key')).toBe(KEY)
    for (const file of await readdir(r.dataDir, { recursive: true })) {
      const text = await readFile(join(r.dataDir, file), 'utf8').catch(() => '')
      expect(text.includes(KEY)).toBe(false)
    }
    await r.restart()
    expect(await r.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-in', method: 'api-key' } })
    expect((await r.call('instances.refresh')).ok).toBe(true)
  })

  it('a key the cloud stops accepting expires the session with what to do, and is forgotten', async () => {
    const keychain = createMemoryKeychain()
    const r = await keyRig(keychain)
    await r.call('session.loginWithKey', withKey())
    r.emulator.control.revokeApiKeys('demo')
    // The command waits for a new sign-in (the re-login gate); signing out ends it with the cloud's refusal.
    const refused = r.call('instances.page', { currentPage: 1, pageSize: 5 })
    await expect.poll(() => r.of('session.expired')).toContainEqual({ pending: 'instances.page' })
    expect(r.of('session').at(-1)).toMatchObject({ status: 'expired', method: 'api-key', username: 'demo' })
    expect(keychain.entries.has('sandbox/demo/api-key')).toBe(false)
    await r.call('session.logout')
    expect(await refused).toMatchObject({
      ok: false,
      error: { kind: 'not-logged-in', message: expect.stringMatching(/refused your API key.*Make a new key/) }
    })
    await r.restart()
    expect(await r.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-out' } })
  })

  it('notebook pages ask for the password once; the token is kept, the API keeps the key', async () => {
    const r = await keyRig()
    await r.call('session.loginWithKey', withKey())
    const [id] = await r.emulator.control.seedInstances('demo', 1)
    await r.call('instances.refresh')
    const first = await r.call('notebook.open', { instanceId: id! })
    expect(first).toMatchObject({
      ok: false,
      error: { kind: 'no-session', field: 'password', message: expect.stringMatching(/password once/) }
    })

    const wrong = await r.call('session.notebookSignIn', { password: 'nope' })
    expect(wrong).toMatchObject({ ok: false, error: { kind: 'bad-credentials' } })
    const given = await r.call('session.notebookSignIn', { password: 'demo' })
    expect(given).toMatchObject({ ok: true, value: { status: 'signed-in', method: 'api-key' } })
    expect(given.ok && given.value.notebookSignInUntil).toBeGreaterThan(r.clock.now())

    const opened = await r.call('notebook.open', { instanceId: id! })
    expect(opened.ok).toBe(true)
    expect(r.platform.notebooks.at(-1)?.cookie).toMatchObject({ name: 'AccessToken', value: expect.stringMatching(/^ey/) })
    // The key still does the API's work after the token exists.
    r.emulator.control.expireTokens('demo')
    expect((await r.call('instances.refresh')).ok).toBe(true)
  })

  it('a password session on the same profile leaves no key behind to resume', async () => {
    const keychain = createMemoryKeychain()
    const r = await keyRig(keychain)
    await r.call('session.loginWithKey', withKey())
    await r.call('session.logout')
    await r.login(true)
    expect(keychain.entries.has('sandbox/demo/api-key')).toBe(false)
    expect(await r.call('profiles.get')).toMatchObject({ ok: true, value: { lastMethod: 'password' } })
    await r.restart()
    expect(await r.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-in' } })
    expect((await r.call('session.get')).ok && (await r.call('session.get'))).not.toMatchObject({ value: { method: 'api-key' } })
  })
})
