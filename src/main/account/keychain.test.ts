/**
 * The keychain for real: a Secret Service on Linux (run under scripts/with-secret-service.sh,
 * as `npm run test:unit` does). Without one, the round-trip tests skip with a reason, except in
 * CI, where a missing keychain is a failure. A separate service name keeps a developer's own
 * Cloud Tray sign-in untouched.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { apiKeyAccount, createMemoryKeychain, createOsKeychain, keychainAccount, KeychainUnavailableError } from './keychain'
import { CHUNK_CHARS, chunkedStore, splitSecret, type RawStore } from './keychain-chunks'
import { createCoreRig, type CoreRig } from '../testing/core-harness'
import type { Keychain } from '../core-types'
import { unavailableKeychain } from './testing/unavailable-keychain'

const service = `cloud-tray-test-${process.pid}`
const keychain = createOsKeychain({ service })
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

/** A stand-in for @napi-rs/keyring's module: `AsyncEntry` over a map, or a failure the test picks. */
function fakeKeyring(behaviour: { fail?: (options: unknown) => Error | undefined; hang?: boolean; limit?: number } = {}) {
  const entries = new Map<string, string>()
  const seen: unknown[] = []
  const never = new Promise<never>(() => {})
  class AsyncEntry {
    constructor(
      readonly service: string,
      readonly account: string,
      readonly options?: unknown
    ) {
      seen.push(options)
      const error = behaviour.fail?.(options)
      if (error) throw error
    }
    async getPassword(): Promise<string | null> {
      if (behaviour.hang) return never
      return entries.get(this.account) ?? null
    }
    async setPassword(secret: string): Promise<void> {
      if (behaviour.hang) return never
      // keyring-rs on Windows: UTF-16 over CRED_MAX_CREDENTIAL_BLOB_SIZE (2560 bytes).
      if (behaviour.limit !== undefined && secret.length > behaviour.limit)
        throw new Error(`Attribute 'password encoded as UTF-16' is longer than platform limit of 2560 chars`)
      entries.set(this.account, secret)
    }
    async deletePassword(): Promise<boolean> {
      return entries.delete(this.account)
    }
  }
  return { module: { AsyncEntry } as never, entries, seen }
}

describe('the OS keychain, whatever it answers', () => {
  it('Linux: pinned to the Secret Service; without one it says so, and never falls back to the kernel keyring', async () => {
    const keyring = fakeKeyring({
      fail: (options) =>
        (options as { linux?: { store?: string } } | undefined)?.linux?.store === 'secret-service'
          ? new Error(
              'Platform secure storage failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files'
            )
          : undefined
    })
    const os = createOsKeychain({ platform: 'linux', load: async () => keyring.module })
    const error = await os.set('sandbox/demo', 'token').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(KeychainUnavailableError)
    expect((error as KeychainUnavailableError).reason).toBe('no-secret-service')
    expect((error as Error).message).toMatch(/No Secret Service/)
    expect(keyring.seen).toEqual([{ linux: { store: 'secret-service' } }])
    expect(keyring.entries.size).toBe(0)
  })

  it('a build without the keychain module for this system: unavailable with the true reason, not a crash', async () => {
    const os = createOsKeychain({
      load: async () => {
        throw new Error('Cannot find native binding. npm has a bug related to optional dependencies')
      }
    })
    const error = await os.get('sandbox/demo').catch((e: unknown) => e)
    expect((error as KeychainUnavailableError).reason).toBe('module-missing')
    expect(await os.probe!()).toBe(false)
  })

  it('Windows: a secret over Credential Manager’s 1280 characters is split, read back whole, and deleted whole', async () => {
    const keyring = fakeKeyring({ limit: 1280 })
    const os = createOsKeychain({ platform: 'win32', load: async () => keyring.module })
    const jwt = `ey${'x'.repeat(3000)}`
    await os.set('hpc-ai/me', jwt)
    expect(await os.get('hpc-ai/me')).toBe(jwt)
    expect([...keyring.entries.keys()].sort()).toEqual(['hpc-ai/me', 'hpc-ai/me#2', 'hpc-ai/me#3'])
    await os.set('hpc-ai/me', 'short')
    expect([...keyring.entries.keys()]).toEqual(['hpc-ai/me'])
    await os.set('hpc-ai/me', jwt)
    await os.delete('hpc-ai/me')
    expect(keyring.entries.size).toBe(0)
  })

  it('the store’s own limit, if met anyway, is reported as what it is', async () => {
    const keyring = fakeKeyring({ limit: 10 })
    const os = createOsKeychain({ platform: 'darwin', load: async () => keyring.module })
    const error = await os.set('a', 'x'.repeat(11)).catch((e: unknown) => e)
    expect((error as KeychainUnavailableError).reason).toBe('too-long')
  })

  it('a call that waits (an unlock prompt) is never given up; the app says it waits, and takes that back when it answers', async () => {
    let answer: (() => void) | undefined
    const keyring = fakeKeyring()
    const os = createOsKeychain({
      patienceMs: 5,
      platform: 'darwin',
      load: async () =>
        ({
          AsyncEntry: class
            extends (keyring.module as { AsyncEntry: new (...a: unknown[]) => { getPassword(): Promise<string | null> } }).AsyncEntry
          {
            override getPassword(): Promise<string | null> {
              return new Promise((resolve) => (answer = () => resolve('late but right')))
            }
          }
        }) as never
    })
    const told: boolean[] = []
    os.watch!((waiting) => told.push(waiting))
    const reading = os.get('sandbox/demo')
    await vi.waitFor(() => expect(told).toEqual([true]), { timeout: 10_000 })
    answer!()
    expect(await reading).toBe('late but right')
    expect(told).toEqual([true, false])
  })
})

describe('splitting a secret', () => {
  it('keeps a short secret as it is, and splits a long one into marked parts under the limit', () => {
    expect(splitSecret('abc')).toEqual(['abc'])
    const parts = splitSecret('y'.repeat(CHUNK_CHARS * 2 + 1))
    expect(parts).toHaveLength(3)
    expect(parts.every((part) => part.length <= 1280)).toBe(true)
  })

  it('a missing later part reads as nothing remembered', async () => {
    const map = new Map<string, string>()
    const raw: RawStore = {
      get: async (a) => map.get(a) ?? null,
      set: async (a, v) => void map.set(a, v),
      delete: async (a) => void map.delete(a)
    }
    const store = chunkedStore(raw, 4)
    await store.set('k', '0123456789')
    map.delete('k#2')
    expect(await store.get('k')).toBeNull()
  })
})

describe('a keychain that does not answer', () => {
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
