/**
 * The OS keychain through @napi-rs/keyring (Secret Service on Linux, Keychain on macOS,
 * Credential Manager on Windows). Entries use service `cloud-tray` and account
 * `<profileId>/<username>` (the token) or `<profileId>/<username>/api-key` (a console API key).
 * When no keychain can be reached, every call throws
 * KeychainUnavailableError and the session stays in memory only: a token is never written
 * to disk in plain text as a fallback.
 *
 * A keychain can also never answer: a locked login keyring whose unlock prompt nobody answers
 * (autologin desktops), a Secret Service that hangs. So every call gives up after
 * KEYCHAIN_TIMEOUT_MS, as unavailable, and the app carries on without it.
 */
import { AsyncEntry } from '@napi-rs/keyring'
import type { Keychain } from '../core-types'

export const KEYCHAIN_SERVICE = 'cloud-tray'

/** Long enough to type a keyring password into an unlock prompt; short enough not to feel hung. */
export const KEYCHAIN_TIMEOUT_MS = 10_000

export class KeychainUnavailableError extends Error {
  constructor(
    cause?: unknown,
    /** `timeout`: the keychain did not answer in time (locked, or its service hangs). */
    readonly reason: 'unreachable' | 'timeout' = 'unreachable'
  ) {
    super(
      reason === 'timeout'
        ? 'The system keychain did not answer, so your sign-in is kept only until Cloud Tray quits.'
        : 'The system keychain could not be reached, so your sign-in is kept only until Cloud Tray quits.',
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

/** Runs a keychain call, giving up after `timeoutMs`; the abort also cancels a call still queued. */
export async function withKeychainTimeout<T>(run: (signal: AbortSignal) => Promise<T>, timeoutMs: number): Promise<T> {
  const abort = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      abort.abort()
      reject(new KeychainUnavailableError(undefined, 'timeout'))
    }, timeoutMs)
  })
  try {
    return await Promise.race([run(abort.signal), timedOut])
  } catch (error) {
    throw error instanceof KeychainUnavailableError ? error : new KeychainUnavailableError(error)
  } finally {
    clearTimeout(timer)
  }
}

export function createOsKeychain(service = KEYCHAIN_SERVICE, timeoutMs = KEYCHAIN_TIMEOUT_MS): Keychain {
  const entry = (account: string): AsyncEntry => new AsyncEntry(service, account)
  const call = <T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> => withKeychainTimeout(run, timeoutMs)
  return {
    get: (account) => call((signal) => entry(account).getPassword(signal)),
    set: (account, secret) => call((signal) => entry(account).setPassword(secret, signal)),
    delete: (account) => call(async (signal) => void (await entry(account).deletePassword(signal))),
    // Without a Secret Service, reads answer "no entry" instead of failing; only a write tells.
    // The app never probes (a probe at start is what made a locked keyring prompt before any
    // window); the keychain tests use it to know whether they can run.
    async probe() {
      const probe = entry(`probe/${process.pid}`)
      try {
        await call((signal) => probe.setPassword('probe', signal))
        const read = await call((signal) => probe.getPassword(signal))
        await call((signal) => probe.deletePassword(signal))
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
