/**
 * The session: who is signed in where, with which token, until when. It owns the token (main
 * only; nothing here puts it in a state object), keeps it in the keychain when asked to
 * remember, resumes a remembered one at start, warns 10 minutes before expiry, and turns a
 * `not-logged-in` answer into the `expired` state.
 */
import type { LoginResult } from '../../shared/api'
import type { LoginInput, SessionState } from '../../shared/contract'
import type { Clock, TimerHandle } from '../../shared/clock'
import type { Keychain } from '../core-types'
import { KeychainUnavailableError, keychainAccount } from './keychain'
import { expiresAt as computeExpiresAt, isExpired, jwtExpiresAt, warningAt } from './expiry'
import type { ProfilesStore } from './profiles'

export interface SessionEvents {
  changed(state: SessionState): void
  expiring(expiresAt: number): void
  warning(id: string, message: string): void
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
  private token: string | undefined
  /** The origin the token was issued by. */
  private origin: string | undefined
  private expires: number | undefined
  private remembered = false
  private keychainState: SessionState['keychain'] = 'available'
  private warningTimer: TimerHandle | undefined
  /** Keychain calls run one after another: a delete can never land after the next sign-in's write. */
  private keychainQueue: Promise<unknown> = Promise.resolve()
  /** Bumped on every login/logout/expiry, so stale async work can tell it is stale. */
  private generationCounter = 0

  constructor(private readonly options: SessionOptions) {
    this.profileId = options.profiles.get().selectedId
  }

  get generation(): number {
    return this.generationCounter
  }

  state(): SessionState {
    return {
      status: this.status,
      profileId: this.profileId,
      ...(this.username !== undefined ? { username: this.username } : {}),
      ...(this.expires !== undefined && this.status !== 'signed-out' ? { expiresAt: this.expires } : {}),
      remembered: this.remembered,
      keychain: this.keychainState
    }
  }

  /** Main-only. Never while the profile's address points to another origin than the token's. */
  accessToken(): string | undefined {
    if (this.status !== 'signed-in' || this.origin === undefined) return undefined
    return this.options.originOf(this.profileId) === this.origin ? this.token : undefined
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
    let token: string | null
    try {
      token = await this.inOrder(() => this.options.keychain.get(account))
    } catch (error) {
      if (error instanceof KeychainUnavailableError) this.keychainUnavailable(error.reason)
      return false
    }
    // The user signed in (or out) while the keychain was being asked: theirs is the session now.
    if (this.generationCounter !== generation) return false
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
    this.signIn(pointer.profileId, pointer.username, token, expires, true, origin)
    return true
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
    let remembered = false
    if (input.rememberMe) {
      remembered = await this.inOrder(async () => {
        if (this.keychainState !== 'available') return false
        try {
          await this.options.keychain.set(account, result.accessToken)
          return true
        } catch (error) {
          if (!(error instanceof KeychainUnavailableError)) throw error
          this.keychainUnavailable(error.reason)
          return false
        }
      })
    } else if (this.isRememberedPointer(input.profileId, input.username)) {
      // Not remembering now: a token remembered earlier for this account must not resume later.
      // The pointer to it goes below, so it never can; taking it out of the keychain need not hold
      // up the sign-in (a locked keychain would). Only then is the keychain touched at a sign-in
      // without "Remember me".
      void this.deleteStored(account).catch(() => undefined)
    }
    const file = this.options.profiles.get()
    await this.options.profiles.set({
      ...file,
      lastUsernames: { ...file.lastUsernames, [input.profileId]: input.username },
      remembered:
        remembered && origin !== undefined
          ? { profileId: input.profileId, username: input.username, expiresAt: expires, origin }
          : null
    })
    this.signIn(input.profileId, input.username, result.accessToken, expires, remembered, origin)
    return this.state()
  }

  /** Signs out: forgets the token here and, when it was remembered, in the keychain. */
  async logout(): Promise<SessionState> {
    if (this.username !== undefined && (this.remembered || this.isRememberedPointer(this.profileId, this.username))) {
      await this.deleteStored(keychainAccount(this.profileId, this.username))
    }
    if (this.options.profiles.get().remembered) await this.forgetPointer()
    this.clearTimers()
    this.generationCounter++
    this.status = 'signed-out'
    this.token = undefined
    this.origin = undefined
    this.expires = undefined
    this.remembered = false
    this.profileId = this.options.profiles.get().selectedId
    this.username = undefined
    this.options.events.changed(this.state())
    return this.state()
  }

  /**
   * The server said `not-logged-in`: the token is dead. It is dropped from memory and keychain
   * (a restart must not resume it); profile and user name stay, for the re-login dialog.
   * Returns false when there was no live session to expire.
   */
  async expire(): Promise<boolean> {
    if (this.status !== 'signed-in') return false
    const account = this.username !== undefined ? keychainAccount(this.profileId, this.username) : undefined
    this.clearTimers()
    this.generationCounter++
    this.status = 'expired'
    this.token = undefined
    this.origin = undefined
    this.options.events.changed(this.state())
    if (account !== undefined && this.remembered) {
      await this.deleteStored(account)
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
    token: string,
    expires: number,
    remembered: boolean,
    origin: string | undefined
  ): void {
    this.clearTimers()
    this.generationCounter++
    this.status = 'signed-in'
    this.profileId = profileId
    this.username = username
    this.token = token
    this.origin = origin
    this.expires = expires
    this.remembered = remembered
    const warnAt = warningAt(expires, this.options.clock.now())
    if (warnAt !== undefined) {
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
    const pointer = this.options.profiles.get().remembered
    return pointer?.profileId === profileId && pointer.username === username
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
    const file = this.options.profiles.get()
    if (file.remembered) await this.options.profiles.set({ ...file, remembered: null })
  }
}

/** The banner when the keychain cannot be used: what happened, what it means, what to do. */
export function keychainWarning(reason: KeychainUnavailableError['reason']): string {
  return reason === 'timeout'
    ? 'The system keychain did not answer (it may be locked, waiting for its password), so Cloud Tray did not sign you in ' +
        'automatically and “Remember me” keeps you signed in only until Cloud Tray quits. Sign in below; to be remembered ' +
        'again, unlock your keychain (on Linux, your login keyring) and restart Cloud Tray.'
    : 'The system keychain could not be reached, so “Remember me” keeps you signed in only until Cloud Tray quits. ' +
        'On Linux, install and unlock a Secret Service keyring (for example GNOME Keyring) and restart Cloud Tray.'
}
