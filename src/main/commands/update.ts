/** The updater's commands (update/update-service.ts decides). */
import type { UpdateService } from '../update/update-service'
import type { CommandGroup } from './dispatcher'

export function updateCommands(updates: UpdateService): CommandGroup<'update.get' | 'update.check' | 'update.restart'> {
  return {
    handlers: {
      'update.get': async () => updates.snapshot(),
      'update.check': async () => updates.check(),
      'update.restart': async ({ anyway }) => updates.restart(anyway)
    }
  }
}
