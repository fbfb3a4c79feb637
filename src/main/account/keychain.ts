/**
 * The OS keychain through @napi-rs/keyring (Secret Service on Linux, Keychain on macOS,
 * Credential Manager on Windows). Entries use service `cloud-tray` and account
 * `<profileId>/<username>` (the token) or `<profileId>/<username>/api-key` (a console API key).
 * When no keychain can be reached, every call throws KeychainUnavailableError, saying why, and
 * the session stays in memory only: a token is never written to disk in plain text as a fallback.
 *
 * - Linux: pinned to the Secret Service. Without one the library would fall back, silently, to
 *   the kernel keyring, which forgets everything at reboot: "Remember me" would seem to work and
 *   not. Pinned, that desktop gets a clear "no Secret Service" instead.
 * - A call may be waiting for the user (a locked keyring's unlock prompt, macOS's "allow
 *   access"): it is never timed out, as giving up would neither free the native thread nor close
 *   the prompt, and the user's answer would land on a call the app had abandoned. After
 *   KEYCHAIN_PATIENCE_MS the app says it is waiting (`watch`); the window stays usable, as every
 *   call is asynchronous and a sign-in never waits for a remembered session being read.
 * - Windows: long secrets are split below Credential Manager's limit (keychain-chunks.ts).
 * - The native module is loaded on first use: a build without this system's binary says so
 *   instead of crashing at launch.
 */
import type { AsyncEntry as AsyncEntryType } from '@napi-rs/keyring'
import type { Keychain } from '../core-types'
import { chunkedStore, type RawStore } from './keychain-chunks'

export const KEYCHAIN_SERVICE = 'cloud-tray'

/** After this, a call still out is one the user may have to answer: the app says it is waiting. */
export const KEYCHAIN_PATIENCE_MS = 10_000

export type KeychainProblem = 'unreachable' | 'no-secret-service' | 'too-long' | 'module-missing'

export class KeychainUnavailableError extends Error {
  constructor(
    cause?: unknown,
    /** Why: the service cannot be reached, Linux has no Secret Service, the secret is over the store's limit, or this build has no keychain module. */
    readonly reason: KeychainProblem = 'unreachable'
  ) {
    super(KEYCHAIN_PROBLEMS[reason], cause === undefined ? undefined : { cause })
    this.name = 'KeychainUnavailableError'
  }
}

const KEPT = 'so your sign-in is kept only until Cloud Tray quits.'
const KEYCHAIN_PROBLEMS: Record<KeychainProblem, string> = {
  unreachable: `The system keychain could not be reached, ${KEPT}`,
  'no-secret-service': `No Secret Service keyring (GNOME Keyring, KWallet) is running on this desktop, ${KEPT}`,
  'too-long': `The system keychain refused the sign-in as longer than it can hold, ${KEPT}`,
  'module-missing': `This copy of Cloud Tray has no keychain support for this system, ${KEPT}`
}

/** Which problem an error from the keyring library is (its messages are keyring-rs's). */
export function keychainProblem(error: unknown): KeychainProblem {
  const text = error instanceof Error ? `${error.message} ${String((error as { code?: unknown }).code ?? '')}` : String(error)
  if (/longer than (the )?platform limit|too long/i.test(text)) return 'too-long'
  if (/secret.?service|org\.freedesktop\.secrets|ServiceUnknown|no such (service|name)/i.test(text)) return 'no-secret-service'
  return 'unreachable'
}

export function keychainAccount(profileId: string, username: string): string {
  return `${profileId}/${username}`
}

/** Where a remembered console API key is kept: beside the account's token, never in a file. */
export function apiKeyAccount(profileId: string, username: string): string {
  return `${keychainAccount(profileId, username)}/api-key`
}

type KeyringModule = { AsyncEntry: typeof AsyncEntryType }

export interface OsKeychainOptions {
  service?: string
  patienceMs?: number
  platform?: NodeJS.Platform
  /** How the native module is loaded (tests: one that fails). */
  load?: () => Promise<KeyringModule>
}

export function createOsKeychain(options: OsKeychainOptions = {}): Keychain {
  const service = options.service ?? KEYCHAIN_SERVICE
  const patienceMs = options.patienceMs ?? KEYCHAIN_PATIENCE_MS
  const platform = options.platform ?? process.platform
  let module: Promise<KeyringModule> | undefined
  const keyring = (): Promise<KeyringModule> =>
    (module ??= (options.load ?? (() => import('@napi-rs/keyring') as Promise<KeyringModule>))().catch((error: unknown) => {
      throw new KeychainUnavailableError(error, 'module-missing')
    }))
  const watchers = new Set<(waiting: boolean) => void>()
  let slow = 0
  /** One call: a typed error when it fails, and "waiting" said while it takes longer than the user would expect. */
  const call = async <T>(run: (entry: typeof AsyncEntryType) => Promise<T>): Promise<T> => {
    const { AsyncEntry } = await keyring()
    let waited = false
    const timer = setTimeout(() => {
      waited = true
      if (slow++ === 0) for (const watcher of watchers) watcher(true)
    }, patienceMs)
    try {
      return await run(AsyncEntry)
    } catch (error) {
      throw error instanceof KeychainUnavailableError ? error : new KeychainUnavailableError(error, keychainProblem(error))
    } finally {
      clearTimeout(timer)
      if (waited && --slow === 0) for (const watcher of watchers) watcher(false)
    }
  }
  // Linux: the Secret Service or nothing (never the kernel keyring, which forgets at reboot).
  const entryOptions = platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined
  const raw: RawStore = {
    get: (account) => call((Entry) => new Entry(service, account, entryOptions).getPassword()),
    set: (account, secret) => call((Entry) => new Entry(service, account, entryOptions).setPassword(secret)),
    delete: (account) => call(async (Entry) => void (await new Entry(service, account, entryOptions).deletePassword()))
  }
  const store = platform === 'win32' ? chunkedStore(raw) : raw
  return {
    ...store,
    watch(listener) {
      watchers.add(listener)
      return () => watchers.delete(listener)
    },
    // The app never probes (a probe at start is what made a locked keyring prompt before any
    // window); the keychain tests use it to know whether they can run.
    async probe() {
      const account = `probe/${process.pid}`
      try {
        await store.set(account, 'probe')
        const read = await store.get(account)
        await store.delete(account)
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
