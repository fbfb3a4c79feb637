/**
 * Instances: the watcher's snapshot, a server page for the pager, and the actions that change
 * an instance. Each action tells the notifier what this app did (so its own stop is not
 * announced as news) and makes the watcher poll fast; a create is told on the hub (`launched`,
 * with what it asked for and where it came from: a template, a watch, a relaunch).
 */
import type { Instance } from '../../shared/api'
import type { Clock } from '../../shared/clock'
import type { InstancesSnapshot, SessionState } from '../../shared/contract'
import { canStop, canTerminate } from '../../shared/instance-rules'
import { AppError } from '../app-error'
import type { CloudClient } from '../cloud/types'
import type { OwnAction } from '../notify/notifier'
import { createInstanceOnce } from '../cloud/create-once/create-once'
import type { EventSink } from '../core-types'
import type { CommandGroup } from './dispatcher'

export interface InstanceServices {
  clock: Clock
  account: {
    /** The session's cloud client; throws AppError `no-session` when signed out. */
    cloud(): CloudClient
    state(): SessionState
  }
  /** The instance watcher (watch/watcher.ts). */
  watch: {
    snapshot(): InstancesSnapshot
    find(instanceId: string): Instance | undefined
    /** Polls now and resolves after that poll. */
    pollNow(): Promise<void>
    /** This app changed something: poll fast for a while. */
    actionHappened(): void
  }
  /** The notifier's record of this app's own actions. */
  own: { noteOwnAction(action: OwnAction, instanceId: string): void; forgetOwnAction(action: OwnAction, instanceId: string): void }
  /** The catalog's image book: a launch puts its image first in the create form's list. */
  catalog: { imageUsed(imageId: string): Promise<void> }
  /** The hub: `launched` after every create (the launch book and the availability watch follow it). */
  emit: EventSink
}

type InstanceCommand =
  'instances.get' | 'instances.refresh' | 'instances.page' | 'instances.create' | 'instances.stop' | 'instances.terminate'

export function instanceCommands(services: InstanceServices): CommandGroup<InstanceCommand> {
  const { account, watch, own } = services
  const creator = createInstanceOnce(services.clock)

  /** Refuses what the instance's status does not allow (a stale window may still ask). */
  const allowed = (instanceId: string, rule: (instance: Instance) => boolean, refusal: (instance: Instance) => string): void => {
    const known = watch.find(instanceId)
    if (known && !rule(known)) throw new AppError('not-allowed', refusal(known))
  }

  /** Noted before the call: the watcher may see the outcome before the answer arrives. */
  const act = async (action: OwnAction, instanceId: string, call: (cloud: CloudClient) => Promise<{ instanceId: string }>) => {
    const cloud = account.cloud()
    own.noteOwnAction(action, instanceId)
    try {
      const answer = await call(cloud)
      watch.actionHappened()
      return answer
    } catch (error) {
      own.forgetOwnAction(action, instanceId)
      throw error
    }
  }

  return {
    handlers: {
      'instances.get': async () => watch.snapshot(),
      'instances.refresh': async () => {
        if (account.state().status === 'signed-out') throw new AppError('no-session', 'You are signed out. Sign in to see your instances.')
        await watch.pollNow()
        return watch.snapshot()
      },
      'instances.page': (pager) => account.cloud().listInstances(pager),
      'instances.create': async ({ request, notMine, origin }) => {
        const created = await creator.create(account.cloud(), request, watch.snapshot().instances, notMine ? { notMine } : {})
        own.noteOwnAction('create', created.instanceId)
        services.emit('launched', { instanceId: created.instanceId, request, ...(origin ? { origin } : {}) })
        watch.actionHappened()
        void services.catalog.imageUsed(request.imageId).catch(() => undefined)
        return { instanceId: created.instanceId }
      },
      'instances.stop': async ({ instanceId }) => {
        allowed(
          instanceId,
          canStop,
          (known) => `«${known.instanceSpecInfo.name}» is ${known.instanceRuntimeInfo.status}; there is nothing to stop.`
        )
        return act('stop', instanceId, (cloud) => cloud.stopInstance(instanceId))
      },
      'instances.terminate': async ({ instanceId }) => {
        allowed(instanceId, canTerminate, (known) => `«${known.instanceSpecInfo.name}» is already released; there is nothing to delete.`)
        return act('terminate', instanceId, (cloud) => cloud.terminateInstance(instanceId))
      }
    }
  }
}
