/**
 * The keychain for real: a Secret Service on Linux (run under scripts/with-secret-service.sh,
 * as `npm run test:unit` does). Without one, the round-trip tests skip with a reason, except in
 * CI, where a missing keychain is a failure. A separate service name keeps a developer's own
 * Cloud Tray sign-in untouched.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  apiKeyAccount,
  createMemoryKeychain,
  createOsKeychain,
  keychainAccount,
  KeychainUnavailableError,
  withKeychainTimeout
} from './keychain'
import { createCoreRig, type CoreRig } from '../testing/core-harness'
import type { Keychain } from '../core-types'
import { unavailableKeychain } from './testing/unavailable-keychain'

const service = `cloud-tray-test-${process.pid}`
const keychain = createOsKeychain(service)
const available = await keychain.probe!()
const reason = 'No Secret Service keychain here; run with scripts/with-secret-service.sh to test it.'
if (!available && process.env['CI']) throw new Error(`CI must test the real keychain: ${reason}`)
if (!available) console.log(reason)

let rig: CoreRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe.skipIf(!available)('OS keychain (Secret Service)', () => {
  it('stores, reads and deletes a secret', async () => {
    const account = keychainAccount('sandbox', `round-trip-${Date.now()}`)
    expect(await keychain.get(account)).toBeNull()
    await keychain.set(account, 'secret-value')
    expect(await keychain.get(account)).toBe('secret-value')
    await keychain.delete(account)
    expect(await keychain.get(account)).toBeNull()
  })

  it('login with remember me keeps the token in the keychain; a restart resumes; logout deletes it', async () => {
    rig = await createCoreRig({ keychain })
    await rig.login(true)
    const stored = await keychain.get(keychainAccount('sandbox', 'demo'))
    expect(stored).toMatch(/^ey/)
    for (const file of await readdir(rig.dataDir, { recursive: true })) {
      const text = await readFile(join(rig.dataDir, file), 'utf8').catch(() => '')
      expect(text.includes(stored!)).toBe(false)
    }
    await rig.restart()
    expect(await rig.call('session.get')).toMatchObject({
      ok: true,
      value: { status: 'signed-in', remembered: true, keychain: 'available' }
    })
    await rig.call('session.logout')
    expect(await keychain.get(keychainAccount('sandbox', 'demo'))).toBeNull()
  })

  it('#15: an API key with remember me lives only in the keychain; a restart resumes it; logout deletes it', async () => {
    const key = `ct_keychain-round-trip-${process.pid}`
    rig = await createCoreRig({ keychain, emulator: { apiKeys: [{ username: 'demo', key }] } })
    const signedIn = await rig.call('session.loginWithKey', { profileId: 'sandbox', username: 'demo', apiKey: key, rememberMe: true })
    expect(signedIn).toMatchObject({ ok: true, value: { status: 'signed-in', method: 'api-key', remembered: true } })
    expect(await keychain.get(apiKeyAccount('sandbox', 'demo'))).toBe(key)
    for (const file of await readdir(rig.dataDir, { recursive: true })) {
      const text = await readFile(join(rig.dataDir, file), 'utf8').catch(() => '')
      expect(text.includes(key)).toBe(false)
    }
    await rig.restart()
    expect(await rig.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-in', method: 'api-key', remembered: true } })
    expect((await rig.call('instances.refresh')).ok).toBe(true)
    await rig.call('session.logout')
    expect(await keychain.get(apiKeyAccount('sandbox', 'demo'))).toBeNull()
  })
})

describe('no keychain', () => {
  const broken = unavailableKeychain()

  it('warns, keeps the session in memory only, and writes no token to disk', async () => {
    rig = await createCoreRig({ keychain: broken })
    // Nothing asked the keychain at start (nothing was remembered), so nothing to warn about yet.
    expect(rig.of('warning')).toEqual([])
    await rig.login(true)
    expect(rig.of('warning').map((w) => w.id)).toEqual(['keychain-unavailable'])
    const session = await rig.call('session.get')
    expect(session).toMatchObject({ ok: true, value: { status: 'signed-in', remembered: false, keychain: 'unavailable' } })
    const files = await readdir(rig.dataDir, { recursive: true })
    for (const file of files) {
      const text = await readFile(join(rig.dataDir, file), 'utf8').catch(() => '')
      expect(text).not.toMatch(/ey[\w-]+\.ey[\w-]+\./) // no JWT anywhere in the data folder
    }
    await rig.restart()
    expect(await rig.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-out' } })
  })
})

/** A keychain that records which calls reach it; `hang` leaves them pending, as a locked keyring does. */
function recordingKeychain(options: { hang?: boolean } = {}): Keychain & { calls: string[]; answer(): void } {
  const memory = createMemoryKeychain()
  const calls: string[] = []
  const waiting: (() => void)[] = []
  const through = <T>(name: string, run: () => Promise<T>): Promise<T> => {
    calls.push(name)
    if (!options.hang) return run()
    return new Promise<T>((resolve) => waiting.push(() => void run().then(resolve)))
  }
  return {
    calls,
    answer: () => waiting.splice(0).forEach((go) => go()),
    get: (account) => through(`get ${account}`, () => memory.get(account)),
    set: (account, secret) => through(`set ${account}`, () => memory.set(account, secret)),
    delete: (account) => through(`delete ${account}`, () => memory.delete(account))
  }
}

describe('when the keychain is asked', () => {
  it('never at start without a remembered session, nor at a sign-in or sign-out without "Remember me"', async () => {
    const keychain = recordingKeychain()
    rig = await createCoreRig({ keychain })
    await rig.login(false)
    await rig.call('session.logout')
    await rig.restart()
    expect(keychain.calls).toEqual([])
  })

  it('to forget a remembered token when the same account signs in without "Remember me"', async () => {
    const keychain = recordingKeychain()
    rig = await createCoreRig({ keychain })
    await rig.login(true)
    await rig.restart()
    await rig.call('session.logout')
    await rig.login(false)
    expect(keychain.calls).toEqual(['set sandbox/demo', 'get sandbox/demo', 'delete sandbox/demo'])
  })
})

describe('a keychain that does not answer', () => {
  it('gives up after the timeout, as unavailable, and says why', async () => {
    const never = new Promise<string>(() => {})
    const error = await withKeychainTimeout(() => never, 20).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(KeychainUnavailableError)
    expect((error as KeychainUnavailableError).reason).toBe('timeout')
    const failing = await withKeychainTimeout(async () => Promise.reject(new Error('dbus')), 1_000).catch((e: unknown) => e)
    expect((failing as KeychainUnavailableError).reason).toBe('unreachable')
    await expect(withKeychainTimeout(async () => 'fine', 1_000)).resolves.toBe('fine')
  })

  it('a remembered session being read does not hold up the window or a sign-in; a late answer then changes nothing', async () => {
    const remembering = recordingKeychain()
    rig = await createCoreRig({ keychain: remembering })
    await rig.login(true)
    await rig.core.stop()
    // The same data folder, now with a keychain that hangs until told to answer.
    const hanging = recordingKeychain({ hang: true })
    const stored = hanging.set('sandbox/demo', 'not-this-token')
    hanging.answer()
    await stored
    const { createAppCore } = await import('../core')
    const core = createAppCore({
      dataDir: rig.dataDir,
      platform: rig.platform,
      keychain: hanging,
      clock: rig.clock,
      version: 'test',
      baseUrlOverride: rig.emulator.baseUrl
    })
    const starting = core.start()
    // The window asks for the session while the keychain is still being asked: it is not held up.
    expect(await core.handle('session.get', undefined, { clientId: 'w' })).toMatchObject({ ok: true, value: { status: 'signed-out' } })
    const signedIn = await core.handle(
      'session.login',
      { profileId: 'sandbox', username: 'demo', password: 'demo', rememberMe: false },
      { clientId: 'w' }
    )
    expect(signedIn).toMatchObject({ ok: true, value: { status: 'signed-in', remembered: false } })
    hanging.answer()
    await starting
    const after = await core.handle('session.get', undefined, { clientId: 'w' })
    expect(after).toMatchObject({ ok: true, value: { status: 'signed-in', remembered: false } })
    await core.stop()
  })
})
