/** Sign in, sign out, and the session's state. The token never leaves main. */
import type { CommandGroup, CoreServices } from '../core-types'
import type { CoreInternals } from '../core-internals'

export function sessionCommands(services: CoreServices, core: CoreInternals): CommandGroup {
  return {
    handlers: {
      'session.get': async () => services.sessionState(),
      'session.login': (input) => core.login(input),
      'session.logout': () => core.logout()
    }
  }
}
