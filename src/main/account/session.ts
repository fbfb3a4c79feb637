/**
 * The session: who is signed in where, with which credential, until when. It owns the token and
 * the API key (main only; nothing here puts them in a state object), keeps them in the keychain
 * when asked to remember, resumes a remembered one at start, warns 10 minutes before a token
 * expires, and turns a `not-logged-in` answer into the `expired` state.
 *
 * Two ways in: a password gives a token that lasts a day; a console API key never expires on a
 * timer (the cloud says when it is refused). On a key session the token, when there is one, is
 * only for notebook pages (the AccessToken cookie): it is got with the password once and kept
 * as a password session keeps its token.
 */
import type { LoginResult } from '../../shared/api'
import type { KeyLoginInput, LoginInput, SessionState, SignInMethod } from '../../shared/contract'
import type { Clock, TimerHandle } from '../../shared/clock'
import type { Keychain } from '../core-types'
import { KeychainUnavailableError, apiKeyAccount, keychainAccount } from './keychain'
import { expiresAt as computeExpiresAt, isExpired, jwtExpiresAt, warningAt } from './expiry'
import type { ProfilesStore } from './profiles'

export interface SessionEvents {
  changed(state: SessionState): void
  expiring(expiresAt: number): void
  warning(id: string, message: string): void
  /** Takes a warning back (the condition is over). */
  unwarn?(id: string): void
}

export interface SessionOptions {
  clock: Clock
  keychain: Keychain
  profiles: ProfilesStore
  events: SessionEvents
  /**
   * Where a session on this profile sends its token now (session-origin.ts). The token is handed
   * out only while this is still the origin it was issued by, and resumed only against it.
   */
  originOf: (profileId: string) => string | undefined
}

export const KEYCHAIN_WARNING_ID = 'keychain-unavailable'
export const RESUME_ORIGIN_WARNING_ID = 'resume-origin-changed'

export class Session {
  private status: SessionState['status'] = 'signed-out'
  private profileId: string
  private username: string | undefined
  private method: SignInMethod = 'password'
  /** API-key sessions: the console key, sent as X-API-Key. */
  private key: string | undefined
  /** Password sessions: the API's token. API-key sessions: the notebook pages' token, if any. */
  private token: string | undefined
  /** The origin the token was issued by. */
  private origin: string | undefined
  /** When `token` expires. */
  private expires: number | undefined
  private remembered = false
  private keychainState: SessionState['keychain'] = 'available'
  private warningTimer: TimerHandle | undefined
  /** Keychain calls run one after another: a delete can never land after the next sign-in's write. */
  private keychainQueue: Promise<unknown> = Promise.resolve()
  /** Bumped on every login/logout/expiry, so stale async work can tell it is stale. */
  private generationCounter = 0

  constructor(private readonly options: SessionOptions) {
    // A call still out after a while may be waiting for the user: say so, and take it back after.
    options.keychain.watch?.((waiting) => {
      if (waiting) options.events.warning(KEYCHAIN_WAITING_ID, KEYCHAIN_WAITING)
      else options.events.unwarn?.(KEYCHAIN_WAITING_ID)
    })
    this.profileId = options.profiles.get().selectedId
  }

  get generation(): number {
    return this.generationCounter
  }

  state(): SessionState {
    const keyed = this.method === 'api-key'
    const live = this.expires !== undefined && this.status !== 'signed-out'
    return {
      status: this.status,
      profileId: this.profileId,
      ...(this.username !== undefined ? { username: this.username } : {}),
      ...(keyed ? { method: 'api-key' as const } : {}),
      ...(live && !keyed ? { expiresAt: this.expires } : {}),
      ...(live && keyed && this.token !== undefined ? { notebookSignInUntil: this.expires } : {}),
      remembered: this.remembered,
      keychain: this.keychainState
    }
  }

  /**
   * Main-only: the token for the AccessToken cookie (the API on a password session, notebook
   * pages on either). Never while the profile's address points to another origin than the
   * token's, nor once a key session's notebook token has expired.
   */
  accessToken(): string | undefined {
    if (!this.atOrigin()) return undefined
    if (this.method === 'api-key' && (this.expires === undefined || isExpired(this.expires, this.options.clock.now()))) return undefined
    return this.token
  }

  /** Main-only: the console API key of a key session, under the same origin rule as the token. */
  apiKey(): string | undefined {
    return this.method === 'api-key' && this.atOrigin() ? this.key : undefined
  }

  /** Signed in, and the profile still points where the credential was issued. */
  private atOrigin(): boolean {
    if (this.status !== 'signed-in' || this.origin === undefined) return false
    return this.options.originOf(this.profileId) === this.origin
  }

  /** The profile the session belongs to (or would, when signed out: the selected one). */
  get currentProfileId(): string {
    return this.profileId
  }

  /** Signed out: follows the profile picker. Ignored while a session exists. */
  followSelection(profileId: string): void {
    if (this.status === 'signed-out' && this.profileId !== profileId) {
      this.profileId = profileId
      this.options.events.changed(this.state())
    }
  }

  /**
   * At start: a remembered, unexpired token resumes the session without asking. This is the only
   * time a start touches the keychain, and only when a session was remembered: a launch without
   * one never makes a locked keyring ask for its password.
   */
  async resume(): Promise<boolean> {
    const pointer = this.options.profiles.get().remembered
    if (!pointer || this.keychainState === 'unavailable') return false
    const account = keychainAccount(pointer.profileId, pointer.username)
    const origin = this.options.originOf(pointer.profileId)
    if (origin === undefined || pointer.origin !== origin) {
      // Issued by another origin than the profile names now (or by a version that did not
      // record it): never sent there. Forgotten, so it cannot come back either.
      await this.deleteStored(account)
      await this.forgetPointer()
      this.options.events.warning(
        RESUME_ORIGIN_WARNING_ID,
        pointer.origin === undefined
          ? 'Please sign in again: Cloud Tray now remembers which address each sign-in belongs to.'
          : 'You were signed out because your profile now points to another address than the one you signed in to. Sign in again to continue.'
      )
      return false
    }
    const generation = this.generationCounter
    if (pointer.method === 'api-key') return this.resumeKey(pointer.profileId, pointer.username, origin, generation)
    const token = await this.readForResume(generation, (get) => get(account))
    if (token === undefined) return false
    if (!token) {
      await this.forgetPointer()
      return false
    }
    // accessExpire is not known here; the JWT's exp normally is. Without it, the expiry stored at login.
    const expires = jwtExpiresAt(token) ?? pointer.expiresAt
    if (expires === undefined || isExpired(expires, this.options.clock.now())) {
      await this.deleteStored(account)
      await this.forgetPointer()
      return false
    }
    this.signIn(pointer.profileId, pointer.username, { method: 'password', token, expires }, true, origin)
    return true
  }

  /** A remembered key: no expiry to check (the cloud says when it is refused); its notebook token if still good. */
  private async resumeKey(profileId: string, username: string, origin: string, generation: number): Promise<boolean> {
    const stored = await this.readForResume(generation, async (get) => {
      const key = await get(apiKeyAccount(profileId, username))
      return { key, token: key ? await get(keychainAccount(profileId, username)) : null }
    })
    if (!stored) return false
    const { key, token } = stored
    if (!key) {
      await this.forgetPointer()
      return false
    }
    const expires = token ? jwtExpiresAt(token) : undefined
    const notebook = token && expires !== undefined && !isExpired(expires, this.options.clock.now()) ? { token, expires } : undefined
    if (token && !notebook) await this.deleteStored(keychainAccount(profileId, username))
    this.signIn(profileId, username, { method: 'api-key', key, ...notebook }, true, origin)
    return true
  }

  /**
   * What a resume reads from the keychain, one call at a time; undefined when it cannot be used:
   * the keychain is unavailable (said once, keychainUnavailable), or the user signed in or out
   * while it was being asked (theirs is the session now).
   */
  private async readForResume<T>(
    generation: number,
    read: (get: (account: string) => Promise<string | null>) => Promise<T>
  ): Promise<T | undefined> {
    let value: T
    try {
      value = await read((account) => this.inOrder(() => this.options.keychain.get(account)))
    } catch (error) {
      if (error instanceof KeychainUnavailableError) this.keychainUnavailable(error.reason)
      return undefined
    }
    return this.generationCounter === generation ? value : undefined
  }

  /**
   * After a successful login call: keep the token (keychain when remembered), update state.
   * `origin`: where the login was sent (taken before sending, so an address edited meanwhile
   * cannot receive this token); by default the profile's origin now.
   */
  async loggedIn(input: LoginInput, result: LoginResult, origin = this.options.originOf(input.profileId)): Promise<SessionState> {
    const now = this.options.clock.now()
    const expires = computeExpiresAt(result.accessToken, now, result.accessExpire)
    const account = keychainAccount(input.profileId, input.username)
    const earlier = this.rememberedPointerFor(input.profileId, input.username)
    const remembered = input.rememberMe ? await this.store(account, result.accessToken) : false
    // Not remembering now: a token remembered earlier for this account must not resume later.
    // The pointer to it goes below, so it never can; taking it out of the keychain need not hold
    // up the sign-in (a locked keychain would). Only then is the keychain touched at a sign-in
    // without "Remember me".
    if (!input.rememberMe && earlier) void this.deleteStored(account).catch(() => undefined)
    // A key remembered earlier for this account must not resume over this password session.
    if (earlier?.method === 'api-key') void this.deleteStored(apiKeyAccount(input.profileId, input.username)).catch(() => undefined)
    await this.rememberPointer(
      input.profileId,
      input.username,
      'password',
      remembered && origin !== undefined ? { expiresAt: expires, origin } : null
    )
    this.signIn(input.profileId, input.username, { method: 'password', token: result.accessToken, expires }, remembered, origin)
    return this.state()
  }

  /**
   * After the cloud accepted a console API key: keep it (keychain when remembered), update
   * state. No expiry timer: a key lasts until the cloud refuses it. `origin` as for loggedIn.
   */
  async keyLoggedIn(input: KeyLoginInput, origin = this.options.originOf(input.profileId)): Promise<SessionState> {
    const keyAccount = apiKeyAccount(input.profileId, input.username)
    const earlier = this.rememberedPointerFor(input.profileId, input.username)
    // A new sign-in starts without a notebook token: the password is asked for when a notebook
    // opens. As for a password, the keychain is touched only to remember, or to forget what was.
    if (earlier) void this.deleteStored(keychainAccount(input.profileId, input.username)).catch(() => undefined)
    const remembered = input.rememberMe ? await this.store(keyAccount, input.apiKey) : false
    if (!input.rememberMe && earlier) void this.deleteStored(keyAccount).catch(() => undefined)
    await this.rememberPointer(input.profileId, input.username, 'api-key', remembered && origin !== undefined ? { origin } : null)
    this.signIn(input.profileId, input.username, { method: 'api-key', key: input.apiKey }, remembered, origin)
    return this.state()
  }

  /**
   * A key session's password sign-in for notebook pages: the token is kept (in the keychain
   * when the key is remembered) until it expires; the API keeps using the key.
   */
  async notebookLoggedIn(result: LoginResult): Promise<SessionState> {
    if (this.status !== 'signed-in' || this.method !== 'api-key' || this.username === undefined) return this.state()
    const expires = computeExpiresAt(result.accessToken, this.options.clock.now(), result.accessExpire)
    if (this.remembered) await this.store(keychainAccount(this.profileId, this.username), result.accessToken)
    this.token = result.accessToken
    this.expires = expires
    this.options.events.changed(this.state())
    return this.state()
  }

  /** Writes a secret to the keychain, in order with the other calls; false (and the warning) when none can be reached. */
  private store(account: string, secret: string): Promise<boolean> {
    return this.inOrder(async () => {
      if (this.keychainState !== 'available') return false
      try {
        await this.options.keychain.set(account, secret)
        return true
      } catch (error) {
        if (!(error instanceof KeychainUnavailableError)) throw error
        this.keychainUnavailable(error.reason)
        return false
      }
    })
  }

  private async rememberPointer(
    profileId: string,
    username: string,
    method: SignInMethod,
    remembered: { expiresAt?: number; origin: string } | null
  ): Promise<void> {
    await this.options.profiles.update((file) => ({
      ...file,
      lastUsernames: { ...file.lastUsernames, [profileId]: username },
      lastMethods: { ...file.lastMethods, [profileId]: method },
      remembered: remembered ? { profileId, username, ...remembered, ...(method === 'api-key' ? { method } : {}) } : null
    }))
  }

  /** Signs out: forgets the token here and, when it was remembered, in the keychain. */
  async logout(): Promise<SessionState> {
    if (this.username !== undefined && (this.remembered || this.isRememberedPointer(this.profileId, this.username))) {
      // A password session has only its token; a key session its key and maybe a notebook token.
      // (A sign-in already removed what the other method had remembered.)
      await this.deleteStored(keychainAccount(this.profileId, this.username))
      if (this.method === 'api-key') await this.deleteStored(apiKeyAccount(this.profileId, this.username))
    }
    if (this.options.profiles.get().remembered) await this.forgetPointer()
    this.clearTimers()
    this.generationCounter++
    this.status = 'signed-out'
    this.token = undefined
    this.key = undefined
    this.method = 'password'
    this.origin = undefined
    this.expires = undefined
    this.remembered = false
    this.profileId = this.options.profiles.get().selectedId
    this.username = undefined
    this.options.events.changed(this.state())
    return this.state()
  }

  /**
   * The server said `not-logged-in`: the token (or the API key) is dead. It is dropped from
   * memory and keychain (a restart must not resume it); profile, user name and the way in stay,
   * for the re-login dialog. Returns false when there was no live session to expire.
   */
  async expire(): Promise<boolean> {
    if (this.status !== 'signed-in') return false
    const accounts =
      this.username !== undefined ? [keychainAccount(this.profileId, this.username), apiKeyAccount(this.profileId, this.username)] : []
    this.clearTimers()
    this.generationCounter++
    this.status = 'expired'
    this.token = undefined
    this.key = undefined
    this.origin = undefined
    this.options.events.changed(this.state())
    if (this.remembered) {
      for (const account of accounts) await this.deleteStored(account)
      await this.forgetPointer()
    }
    return true
  }

  dispose(): void {
    this.clearTimers()
  }

  private signIn(
    profileId: string,
    username: string,
    credential:
      | { method: 'password'; token: string; expires: number }
      | { method: 'api-key'; key: string; token?: string | undefined; expires?: number | undefined },
    remembered: boolean,
    origin: string | undefined
  ): void {
    this.clearTimers()
    this.generationCounter++
    this.status = 'signed-in'
    this.profileId = profileId
    this.username = username
    this.method = credential.method
    this.key = credential.method === 'api-key' ? credential.key : undefined
    this.token = credential.token
    this.origin = origin
    this.expires = credential.expires
    this.remembered = remembered
    // A key never expires on a timer; only a password session's token warns before it ends.
    const expires = credential.expires
    const warnAt = credential.method === 'password' && expires !== undefined ? warningAt(expires, this.options.clock.now()) : undefined
    if (warnAt !== undefined && expires !== undefined) {
      this.warningTimer = this.options.clock.setTimeout(() => {
        this.warningTimer = undefined
        if (this.status === 'signed-in') this.options.events.expiring(expires)
      }, warnAt - this.options.clock.now())
    }
    this.options.events.changed(this.state())
  }

  private clearTimers(): void {
    this.options.clock.clearTimeout(this.warningTimer)
    this.warningTimer = undefined
  }

  private isRememberedPointer(profileId: string, username: string): boolean {
    return this.rememberedPointerFor(profileId, username) !== undefined
  }

  /** The remembered session's pointer, when it is this account's. */
  private rememberedPointerFor(profileId: string, username: string) {
    const pointer = this.options.profiles.get().remembered
    return pointer?.profileId === profileId && pointer.username === username ? pointer : undefined
  }

  private keychainUnavailable(reason: KeychainUnavailableError['reason'] = 'unreachable'): void {
    if (this.keychainState === 'unavailable') return
    this.keychainState = 'unavailable'
    this.options.events.warning(KEYCHAIN_WARNING_ID, keychainWarning(reason))
    if (this.status !== 'signed-out') this.options.events.changed(this.state())
  }

  private deleteStored(account: string): Promise<void> {
    return this.inOrder(async () => {
      if (this.keychainState === 'unavailable') return
      try {
        await this.options.keychain.delete(account)
      } catch (error) {
        if (error instanceof KeychainUnavailableError) this.keychainUnavailable(error.reason)
        else throw error
      }
    })
  }

  private inOrder<T>(run: () => Promise<T>): Promise<T> {
    const next = this.keychainQueue.then(run, run)
    this.keychainQueue = next.catch(() => undefined)
    return next
  }

  private async forgetPointer(): Promise<void> {
    if (this.options.profiles.get().remembered) await this.options.profiles.update((file) => ({ ...file, remembered: null }))
  }
}

/** The banner when the keychain cannot be used: what happened, what it means, what to do. */
export function keychainWarning(reason: KeychainUnavailableError['reason']): string {
  switch (reason) {
    case 'no-secret-service':
      return (
        'No Secret Service keyring (GNOME Keyring, KWallet) is running on this desktop, so “Remember me” cannot remember you: ' +
        'you stay signed in only until Cloud Tray quits. Install one (for example gnome-keyring), log in again, and restart Cloud Tray.'
      )
    case 'too-long':
      return 'The system keychain refused your sign-in as longer than it can hold, so “Remember me” keeps you signed in only until Cloud Tray quits.'
    case 'module-missing':
      return (
        'This copy of Cloud Tray has no keychain support for this system (its keychain module could not be loaded), so “Remember me” ' +
        'keeps you signed in only until Cloud Tray quits. Installing the build for your system fixes it.'
      )
    default:
      return (
        'The system keychain could not be reached, so “Remember me” keeps you signed in only until Cloud Tray quits. ' +
        'On Linux, install and unlock a Secret Service keyring (for example GNOME Keyring) and restart Cloud Tray.'
      )
  }
}

/** Said while a keychain call waits, perhaps for the user; taken back once nothing waits. */
export const KEYCHAIN_WAITING_ID = 'keychain-waiting'
export const KEYCHAIN_WAITING =
  'Cloud Tray is waiting for the system keychain: it may be asking for your password (its prompt can be behind this window). ' +
  'Answer it to be signed in as remembered; meanwhile you can sign in here.'
