/**
 * The instance list as the watcher in main last saw it, plus what the user just asked for
 * (a stop or delete in flight shows on the row at once, before the watcher confirms). Status
 * changes show in place; what a person waits for is announced by main (announcements.ts).
 */
import type { Instance } from '../../../shared/api'
import type { ErrorInfo, InstancesSnapshot, Result, StuckStart, WatchHealth } from '../../../shared/contract'
import { call, on } from '../lib/bridge'
import { reconcilePending, type PendingAction } from './instance-actions'
import { keepUnchanged } from './keep-unchanged'
import { Mirror, type MirrorStore } from '../lib/mirror.svelte'
import { toasts } from '../lib/toasts.svelte'

class InstancesStore implements MirrorStore {
  // Raw (in the mirror): snapshots are replaced whole, and deep proxies over 1000 instances cost more than the render.
  private readonly mirror = new Mirror({
    event: 'instances',
    read: () => call('instances.get'),
    initial: null as InstancesSnapshot | null,
    // Every poll sends the whole list, every object new: rows redraw only where an instance changed.
    keepUnchanged,
    // Drop pending marks the watcher has caught up with.
    changed: (snapshot) => {
      if (snapshot) this.pending = reconcilePending(this.pending, snapshot.instances)
    }
  })
  health = $state<WatchHealth>({ state: 'ok' })
  pending = $state<Record<string, PendingAction>>({})
  refreshing = $state(false)

  get snapshot(): InstancesSnapshot | null {
    return this.mirror.value
  }

  get loadError(): ErrorInfo | null {
    return this.mirror.error
  }

  byId = $derived(new Map((this.snapshot?.instances ?? []).map((instance) => [instance.instanceMetadata.instanceId, instance])))
  /** Stuck starts by instance id. */
  stuck = $derived(new Map<string, StuckStart>((this.snapshot?.stuck ?? []).map((start) => [start.instanceId, start])))

  listen(): () => void {
    const offs = [
      this.mirror.listen(),
      on('watch.health', (health) => {
        this.health = health
      })
    ]
    return () => offs.forEach((off) => off())
  }

  load(): Promise<void> {
    return this.mirror.load()
  }

  async refresh(): Promise<void> {
    this.refreshing = true
    try {
      const answer = await this.mirror.ask(() => call('instances.refresh'))
      if (!answer.ok) toasts.show('error', 'Could not refresh instances', answer.error.message)
    } finally {
      this.refreshing = false
    }
  }

  private async act(
    instance: Instance,
    mark: PendingAction,
    run: () => Promise<Result<{ instanceId: string }>>,
    verb: string
  ): Promise<boolean> {
    const id = instance.instanceMetadata.instanceId
    this.pending = { ...this.pending, [id]: mark }
    const result = await run()
    if (!result.ok) {
      const { [id]: _dropped, ...rest } = this.pending
      this.pending = rest
      toasts.show('error', `Could not ${verb} ${instance.instanceSpecInfo.name}`, result.error.message)
      return false
    }
    return true
  }

  stop(instance: Instance): Promise<boolean> {
    const instanceId = instance.instanceMetadata.instanceId
    return this.act(instance, 'stopping', () => call('instances.stop', { instanceId }), 'stop')
  }

  terminate(instance: Instance): Promise<boolean> {
    const instanceId = instance.instanceMetadata.instanceId
    return this.act(instance, 'deleting', () => call('instances.terminate', { instanceId }), 'delete')
  }
}

export const instances = new InstancesStore()
