/**
 * Instances: the watcher's snapshot, a server page for the pager, and the actions that change
 * an instance. Each action tells the core what this app did (so its own stop is not announced
 * as news) and makes the watcher poll fast.
 */
import type { CommandGroup, CoreServices } from '../core-types'
import type { CoreInternals } from '../core-internals'
import { AppError } from '../app-error'
import { canStop } from '../tray/tray-model'
import { createInstanceOnce } from './create-once'

export function instanceCommands(services: CoreServices, core: CoreInternals): CommandGroup {
  const creator = createInstanceOnce(services.clock)
  return {
    handlers: {
      'instances.get': async () => core.snapshot(),
      'instances.refresh': () => core.refresh(),
      'instances.page': (pager) => services.cloud().listInstances(pager),
      'catalog.suggestions': async () => core.suggestions(),
      'instances.create': async ({ request, notMine }) => {
        const created = await creator.create(services.cloud(), request, core.snapshot().instances, notMine ? { notMine } : {})
        core.noteAction('create', created.instanceId)
        services.pollSoon('create')
        void core.rememberLaunch(request)
        return { instanceId: created.instanceId }
      },
      'instances.stop': async ({ instanceId }) => {
        const known = services.findInstance(instanceId)
        if (known && !canStop(known.instanceRuntimeInfo.status)) {
          throw new AppError(
            'not-allowed',
            `«${known.instanceSpecInfo.name}» is ${known.instanceRuntimeInfo.status}; there is nothing to stop.`
          )
        }
        // Noted before the call: the watcher may see "Stopped" before the answer arrives.
        const cloud = services.cloud()
        core.noteAction('stop', instanceId)
        try {
          const stopped = await cloud.stopInstance(instanceId)
          services.pollSoon('stop')
          return stopped
        } catch (error) {
          core.forgetAction('stop', instanceId)
          throw error
        }
      },
      'instances.terminate': async ({ instanceId }) => {
        const cloud = services.cloud()
        core.noteAction('terminate', instanceId)
        try {
          const terminated = await cloud.terminateInstance(instanceId)
          services.pollSoon('terminate')
          return terminated
        } catch (error) {
          core.forgetAction('terminate', instanceId)
          throw error
        }
      }
    }
  }
}
