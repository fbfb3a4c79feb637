/**
 * Profiles and the session, as main reports them. When the session expires under a command,
 * main keeps that command waiting (contract.ts); this store opens the re-login dialog over
 * whatever view is showing, and the waiting command completes once the user signs in again.
 */
import type { ErrorInfo, KeyLoginInput, LoginInput, ProfileInput, ProfilesState, Result, SessionState } from '../../../shared/contract'
import { call, on } from '../lib/bridge'
import { Mirror, type MirrorStore } from '../lib/mirror.svelte'
import { formatClock } from '../lib/format'
import { toasts } from '../lib/toasts.svelte'

class SessionStore implements MirrorStore {
  /** Main sends `session` on every change of the session, so an answer an event overtook is dropped. */
  private readonly stateMirror = new Mirror({
    event: 'session',
    read: () => call('session.get'),
    initial: null as SessionState | null,
    changed: (state) => {
      if (state) this.follow(state)
    }
  })
  /** `profiles` comes only when the Sandbox starts; the profile commands' answers are applied as they come. */
  private readonly profilesMirror = new Mirror({
    event: 'profiles',
    read: () => call('profiles.get'),
    initial: null as ProfilesState | null
  })
  /** Set while the session has expired and the user has not signed in again. */
  expired = $state<{ pending: string | null } | null>(null)
  /** The re-login dialog was closed with Esc; a banner offers to reopen it. */
  dialogDismissed = $state(false)

  get state(): SessionState | null {
    return this.stateMirror.value
  }

  get profiles(): ProfilesState | null {
    return this.profilesMirror.value
  }

  get loadError(): ErrorInfo | null {
    return this.stateMirror.error ?? this.profilesMirror.error
  }

  get signedIn(): boolean {
    return this.state?.status === 'signed-in'
  }

  get currentProfile() {
    const profiles = this.profiles
    return profiles?.profiles.find((profile) => profile.id === (this.state?.profileId ?? profiles.selectedId))
  }

  listen(): () => void {
    const offs = [
      this.stateMirror.listen(),
      this.profilesMirror.listen(),
      on('session.expired', ({ pending }) => {
        this.expired = { pending }
        this.dialogDismissed = false
      }),
      on('session.expiring', ({ expiresAt }) => {
        toasts.show(
          'warning',
          `Your session ends at ${formatClock(expiresAt)}`,
          'When it ends, Cloud Tray asks for your password again; what you are doing waits and nothing you typed is lost.'
        )
      })
    ]
    return () => offs.forEach((off) => off())
  }

  async load(): Promise<void> {
    await Promise.all([this.profilesMirror.load(), this.stateMirror.load()])
  }

  /** The re-login dialog follows the session: closed once signed in, open while expired. */
  private follow(state: SessionState): void {
    if (state.status === 'signed-in') {
      this.expired = null
      this.dialogDismissed = false
    } else if (state.status === 'expired') {
      this.expired ??= { pending: null }
    } else {
      this.expired = null
    }
  }

  /** A session command's answer: shown unless a `session` event came while it was out (that one is newer). */
  private sessionCall(send: () => Promise<Result<SessionState>>): Promise<Result<SessionState>> {
    return this.stateMirror.ask(send)
  }

  login(input: LoginInput): Promise<Result<SessionState>> {
    return this.sessionCall(() => call('session.login', input))
  }

  loginWithKey(input: KeyLoginInput): Promise<Result<SessionState>> {
    return this.sessionCall(() => call('session.loginWithKey', input))
  }

  /** An API-key session: notebook pages need the password once. */
  get notebookNeedsPassword(): boolean {
    const state = this.state
    return state?.method === 'api-key' && (state.notebookSignInUntil === undefined || state.notebookSignInUntil <= Date.now())
  }

  notebookSignIn(password: string): Promise<Result<SessionState>> {
    return this.sessionCall(() => call('session.notebookSignIn', { password }))
  }

  async logout(): Promise<void> {
    await this.sessionCall(() => call('session.logout'))
  }

  private setProfiles(result: Result<ProfilesState>): Result<ProfilesState> {
    if (result.ok) this.profilesMirror.set(result.value)
    return result
  }

  async selectProfile(id: string): Promise<Result<ProfilesState>> {
    return this.setProfiles(await call('profiles.select', { id }))
  }

  async saveProfile(input: ProfileInput): Promise<Result<ProfilesState>> {
    return this.setProfiles(await call('profiles.save', input))
  }

  async removeProfile(id: string): Promise<Result<ProfilesState>> {
    return this.setProfiles(await call('profiles.remove', { id }))
  }
}

export const session = new SessionStore()
