/**
 * The re-login gate: nothing the user asked for is lost to an expired login.
 *
 * A command that fails with `not-logged-in` (the token expired while a form was open) is
 * parked here while the session expires and the window asks the user to sign in again; once
 * the same account is signed in, the command runs once more and its caller gets that result.
 * Signing out, or signing in as someone else, ends it with the original error: another user
 * must not get someone's create. A second `not-logged-in` is final.
 */
import type { CommandName, SessionState } from '../../shared/contract'

export interface ReloginGateOptions {
  /** The session's current account and token generation (bumped by every login and logout). */
  session: { readonly generation: number; state(): SessionState }
  /** Whether a thrown error means the token was refused. */
  isNotLoggedIn(error: unknown): boolean
  /** Expires the session if it is live and tells the windows, naming the command that waits. */
  expire(pending: CommandName | null): Promise<void>
}

interface Parked {
  profileId: string
  username: string | undefined
  resolve: (retry: boolean) => void
}

/** Commands that must never wait for a login: they are the login. */
const NEVER_PARKED: ReadonlySet<CommandName> = new Set<CommandName>([
  'session.login',
  'session.loginWithKey',
  'session.notebookSignIn',
  'session.logout'
])

export class ReloginGate {
  private readonly parked = new Set<Parked>()

  constructor(private readonly options: ReloginGateOptions) {}

  /** How many commands are waiting for a login (for tests and diagnostics). */
  get waiting(): number {
    return this.parked.size
  }

  /** Runs `attempt`; on `not-logged-in`, waits for a re-login of the same account and runs it once more. */
  async run<T>(command: CommandName, attempt: () => Promise<T>): Promise<T> {
    const { session } = this.options
    const generation = session.generation
    const { profileId, username } = session.state()
    try {
      return await attempt()
    } catch (error) {
      if (!this.options.isNotLoggedIn(error) || NEVER_PARKED.has(command)) throw error
      // Answered for a token that was replaced while the call ran (the user signed in again
      // meanwhile): the retry can go at once.
      const replaced = session.generation !== generation && session.state().status === 'signed-in'
      if (!replaced && !(await this.park(command, profileId, username))) throw error
      return this.retry(attempt)
    }
  }

  /** The session changed (login, logout): parked commands of that account run again, others end. */
  release(state: SessionState): void {
    for (const waiter of [...this.parked]) {
      this.parked.delete(waiter)
      waiter.resolve(state.status === 'signed-in' && state.profileId === waiter.profileId && state.username === waiter.username)
    }
  }

  /** Quitting: every parked command ends with its not-logged-in error. */
  cancelAll(): void {
    for (const waiter of this.parked) waiter.resolve(false)
    this.parked.clear()
  }

  private park(command: CommandName, profileId: string, username: string | undefined): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      this.parked.add({ profileId, username, resolve })
      void this.options.expire(command)
    })
  }

  private async retry<T>(attempt: () => Promise<T>): Promise<T> {
    try {
      return await attempt()
    } catch (error) {
      if (this.options.isNotLoggedIn(error)) await this.options.expire(null)
      throw error
    }
  }
}
