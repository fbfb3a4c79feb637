/**
 * Profiles and the session, as main reports them. When the session expires under a command,
 * main keeps that command waiting (contract.ts); this store opens the re-login dialog over
 * whatever view is showing, and the waiting command completes once the user signs in again.
 */
import type { ErrorInfo, KeyLoginInput, LoginInput, ProfileInput, ProfilesState, Result, SessionState } from '../../../shared/contract'
import { call, on } from './bridge'
import { formatClock } from './format'
import { toasts } from './toasts.svelte'

class SessionStore {
  profiles = $state<ProfilesState | null>(null)
  state = $state<SessionState | null>(null)
  /** Set while the session has expired and the user has not signed in again. */
  expired = $state<{ pending: string | null } | null>(null)
  /** The re-login dialog was closed with Esc; a banner offers to reopen it. */
  dialogDismissed = $state(false)
  loadError = $state<ErrorInfo | null>(null)

  get signedIn(): boolean {
    return this.state?.status === 'signed-in'
  }

  get currentProfile() {
    const profiles = this.profiles
    return profiles?.profiles.find((profile) => profile.id === (this.state?.profileId ?? profiles.selectedId))
  }

  listen(): () => void {
    const offs = [
      on('session', (state) => this.apply(state)),
      on('profiles', (profiles) => (this.profiles = profiles)),
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
    const [profiles, state] = await Promise.all([call('profiles.get'), call('session.get')])
    if (!profiles.ok) this.loadError = profiles.error
    else this.profiles = profiles.value
    if (!state.ok) this.loadError = state.error
    else this.apply(state.value)
  }

  private apply(state: SessionState): void {
    this.state = state
    if (state.status === 'signed-in') {
      this.expired = null
      this.dialogDismissed = false
    } else if (state.status === 'expired') {
      this.expired ??= { pending: null }
    } else {
      this.expired = null
    }
  }

  async login(input: LoginInput): Promise<Result<SessionState>> {
    const result = await call('session.login', input)
    if (result.ok) this.apply(result.value)
    return result
  }

  async loginWithKey(input: KeyLoginInput): Promise<Result<SessionState>> {
    const result = await call('session.loginWithKey', input)
    if (result.ok) this.apply(result.value)
    return result
  }

  /** An API-key session: notebook pages need the password once. */
  get notebookNeedsPassword(): boolean {
    const state = this.state
    return state?.method === 'api-key' && (state.notebookSignInUntil === undefined || state.notebookSignInUntil <= Date.now())
  }

  async notebookSignIn(password: string): Promise<Result<SessionState>> {
    const result = await call('session.notebookSignIn', { password })
    if (result.ok) this.apply(result.value)
    return result
  }

  async logout(): Promise<void> {
    const result = await call('session.logout')
    if (result.ok) this.apply(result.value)
  }

  private setProfiles(result: Result<ProfilesState>): Result<ProfilesState> {
    if (result.ok) this.profiles = result.value
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
