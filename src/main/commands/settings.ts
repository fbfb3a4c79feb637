/** Settings: read and patch; the store validates and writes atomically. */
import type { CommandGroup, CoreServices } from '../core-types'
import type { CoreInternals } from '../core-internals'

export function settingsCommands(services: CoreServices, core: CoreInternals): CommandGroup {
  return {
    handlers: {
      'settings.get': async () => services.settings(),
      'settings.update': (patch) => core.updateSettings(patch)
    }
  }
}
