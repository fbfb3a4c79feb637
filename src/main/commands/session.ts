/** Sign in (password or console API key), sign out, and the session's state. The token and key never leave main. */
import type { KeyLoginInput, LoginInput, SessionState } from '../../shared/contract'
import type { CommandGroup } from './dispatcher'

/** The account's session side (account/account.ts). */
export interface SessionDesk {
  state(): SessionState
  login(input: LoginInput): Promise<SessionState>
  loginWithKey(input: KeyLoginInput): Promise<SessionState>
  notebookSignIn(password: string): Promise<SessionState>
  logout(): Promise<SessionState>
}

export function sessionCommands(
  session: SessionDesk
): CommandGroup<'session.get' | 'session.login' | 'session.loginWithKey' | 'session.notebookSignIn' | 'session.logout'> {
  return {
    handlers: {
      'session.get': async () => session.state(),
      'session.login': (input) => session.login(input),
      'session.loginWithKey': (input) => session.loginWithKey(input),
      'session.notebookSignIn': ({ password }) => session.notebookSignIn(password),
      'session.logout': () => session.logout()
    }
  }
}
