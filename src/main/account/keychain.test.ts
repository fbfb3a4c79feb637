/**
 * The keychain for real: a Secret Service on Linux (run under scripts/with-secret-service.sh,
 * as `npm run test:unit` does). Without one, the round-trip tests skip with a reason, except in
 * CI, where a missing keychain is a failure. A separate service name keeps a developer's own
 * Cloud Tray sign-in untouched.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { apiKeyAccount, createOsKeychain, keychainAccount, KeychainUnavailableError } from './keychain'
import { createCoreRig, type CoreRig } from '../test-support/core-harness'
import type { Keychain } from '../core-types'

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
    expect(await rig.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-in', remembered: true, keychain: 'available' } })
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
  const broken: Keychain = {
    get: async () => {
      throw new KeychainUnavailableError()
    },
    set: async () => {
      throw new KeychainUnavailableError()
    },
    delete: async () => {
      throw new KeychainUnavailableError()
    },
    probe: async () => false
  }

  it('warns, keeps the session in memory only, and writes no token to disk', async () => {
    rig = await createCoreRig({ keychain: broken })
    expect(rig.of('warning').map((w) => w.id)).toEqual(['keychain-unavailable'])
    await rig.login(true)
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
