/**
 * Profiles and the session, as main reports them. When the session expires under a command,
 * main keeps that command waiting (contract.ts); this store opens the re-login dialog over
 * whatever view is showing, and the waiting command completes once the user signs in again.
 */
import type { ErrorInfo, KeyLoginInput, LoginInput, ProfileInput, ProfilesState, Result, SessionState } from '../../../shared/contract'
import { AnswerOrder } from '../lib/answer-order'
import { call, on } from '../lib/bridge'
import { formatClock } from '../lib/format'
import { toasts } from '../lib/toasts.svelte'

class SessionStore {
  profiles = $state<ProfilesState | null>(null)
  state = $state<SessionState | null>(null)
  /** Set while the session has expired and the user has not signed in again. */
  expired = $state<{ pending: string | null } | null>(null)
  /** The re-login dialog was closed with Esc; a banner offers to reopen it. */
  dialogDismissed = $state(false)
  loadError = $state<ErrorInfo | null>(null)
  /** Main sends `session` on every change of the session, so an answer an event overtook is dropped. */
  private readonly stateOrder = new AnswerOrder()
  /** `profiles` comes only when the Sandbox starts; the profile commands' answers are applied as they come. */
  private readonly profilesOrder = new AnswerOrder()

  get signedIn(): boolean {
    return this.state?.status === 'signed-in'
  }

  get currentProfile() {
    const profiles = this.profiles
    return profiles?.profiles.find((profile) => profile.id === (this.state?.profileId ?? profiles.selectedId))
  }

  listen(): () => void {
    const offs = [
      on(
        'session',
        this.stateOrder.event((state) => this.apply(state))
      ),
      on(
        'profiles',
        this.profilesOrder.event((profiles) => (this.profiles = profiles))
      ),
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
    const [profiles, state] = await Promise.all([
      this.profilesOrder.ask(() => call('profiles.get')),
      this.stateOrder.ask(() => call('session.get'))
    ])
    if (!profiles.answer.ok) this.loadError = profiles.answer.error
    else if (!profiles.overtaken) this.profiles = profiles.answer.value
    if (!state.answer.ok) this.loadError = state.answer.error
    else if (!state.overtaken) this.apply(state.answer.value)
  }

  /** A session command's answer: shown unless a `session` event came while it was out (that one is newer). */
  private async sessionCall(send: () => Promise<Result<SessionState>>): Promise<Result<SessionState>> {
    const { answer, overtaken } = await this.stateOrder.ask(send)
    if (answer.ok && !overtaken) this.apply(answer.value)
    return answer
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
