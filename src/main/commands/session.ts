/** Sign in, sign out, and the session's state. The token never leaves main. */
import type { LoginInput, SessionState } from '../../shared/contract'
import type { CommandGroup } from './dispatcher'

/** The account's session side (account/account.ts). */
export interface SessionDesk {
  state(): SessionState
  login(input: LoginInput): Promise<SessionState>
  logout(): Promise<SessionState>
}

export function sessionCommands(session: SessionDesk): CommandGroup<'session.get' | 'session.login' | 'session.logout'> {
  return {
    handlers: {
      'session.get': async () => session.state(),
      'session.login': (input) => session.login(input),
      'session.logout': () => session.logout()
    }
  }
}
