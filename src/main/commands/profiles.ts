/** Profiles: which cloud to sign in to (built-ins and the user's own deployments). */
import type { CommandGroup, CoreServices } from '../core-types'
import type { CoreInternals } from '../core-internals'

export function profileCommands(_services: CoreServices, core: CoreInternals): CommandGroup {
  return {
    handlers: {
      'profiles.get': async () => core.profiles(),
      'profiles.save': (input) => core.saveProfile(input),
      'profiles.remove': ({ id }) => core.removeProfile(id),
      'profiles.select': ({ id }) => core.selectProfile(id)
    }
  }
}
