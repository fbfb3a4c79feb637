/**
 * The OS keychain through @napi-rs/keyring (Secret Service on Linux, Keychain on macOS,
 * Credential Manager on Windows). Entries use service `cloud-tray` and account
 * `<profileId>/<username>` (the token) or `<profileId>/<username>/api-key` (a console API key). When no keychain can be reached, every call throws
 * KeychainUnavailableError and the session stays in memory only: a token is never written
 * to disk in plain text as a fallback.
 */
import { AsyncEntry } from '@napi-rs/keyring'
import type { Keychain } from '../core-types'

export const KEYCHAIN_SERVICE = 'cloud-tray'

export class KeychainUnavailableError extends Error {
  constructor(cause?: unknown) {
    super(
      'The system keychain could not be reached, so your sign-in is kept only until Cloud Tray quits.',
      cause === undefined ? undefined : { cause }
    )
    this.name = 'KeychainUnavailableError'
  }
}

export function keychainAccount(profileId: string, username: string): string {
  return `${profileId}/${username}`
}

/** Where a remembered console API key is kept: beside the account's token, never in a file. */
export function apiKeyAccount(profileId: string, username: string): string {
  return `${keychainAccount(profileId, username)}/api-key`
}

export function createOsKeychain(service = KEYCHAIN_SERVICE): Keychain {
  const entry = (account: string): AsyncEntry => new AsyncEntry(service, account)
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      throw new KeychainUnavailableError(error)
    }
  }
  return {
    get: (account) => guard(() => entry(account).getPassword()),
    set: (account, secret) => guard(() => entry(account).setPassword(secret)),
    delete: (account) => guard(async () => void (await entry(account).deletePassword())),
    // Without a Secret Service, reads answer "no entry" instead of failing; only a write tells.
    async probe() {
      const probe = entry(`probe/${process.pid}`)
      try {
        await probe.setPassword('probe')
        const read = await probe.getPassword()
        await probe.deletePassword()
        return read === 'probe'
      } catch {
        return false
      }
    }
  }
}

/** A keychain in memory: for tests, and never used as a silent fallback in the app. */
export function createMemoryKeychain(): Keychain & { entries: Map<string, string> } {
  const entries = new Map<string, string>()
  return {
    entries,
    get: async (account) => entries.get(account) ?? null,
    set: async (account, secret) => void entries.set(account, secret),
    delete: async (account) => void entries.delete(account),
    probe: async () => true
  }
}
