/**
 * Which row actions make sense for an instance right now. A button for an action that cannot
 * work is disabled (with the reason as its description), never offered and then refused.
 */
import { statusGroup, type Instance } from '../../../shared/api'
import { uniqueBy } from '../../../shared/unique-by'

export type InstanceAction = 'notebook' | 'terminal' | 'ports' | 'stop' | 'delete'

/** Set by the list while a command the user started is in flight (shown at once, before the watcher). */
export type PendingAction = 'stopping' | 'deleting'

export interface ActionState {
  enabled: boolean
  /** Why it is disabled, in the user's words. */
  reason?: string
}

export function sshEntry(instance: Instance) {
  return instance.instanceSpecInfo.nodePorts.find((entry) => entry.port === 22)
}

/**
 * The port entries as listed, each inside port once (views key rows by it): a port the service
 * lists twice is shown with its first entry, the one `sshEntry` and the tray use too.
 */
export function listedPorts(instance: Instance) {
  return uniqueBy(instance.instanceSpecInfo.nodePorts, (entry) => entry.port)
}

/** Forwarded ports other than SSH: what the Ports panel lists. */
export function forwardedPorts(instance: Instance) {
  return listedPorts(instance).items.filter((entry) => entry.port !== 22)
}

export function actionState(instance: Instance, action: InstanceAction, pending?: PendingAction): ActionState {
  const status = instance.instanceRuntimeInfo.status
  const group = statusGroup(status)
  const running = status === 'Running'
  if (pending === 'deleting') return { enabled: false, reason: 'Being deleted.' }
  switch (action) {
    case 'notebook':
      return running ? { enabled: true } : { enabled: false, reason: `The notebook opens once the instance is Running (now ${status}).` }
    case 'terminal':
      if (!running) return { enabled: false, reason: `SSH works once the instance is Running (now ${status}).` }
      return sshEntry(instance) ? { enabled: true } : { enabled: false, reason: 'This instance has no SSH port (22) forwarded.' }
    case 'ports':
      if (!running) return { enabled: false, reason: `Ports answer once the instance is Running (now ${status}).` }
      return forwardedPorts(instance).length > 0
        ? { enabled: true }
        : { enabled: false, reason: 'No ports were forwarded when this instance was created.' }
    case 'stop':
      if (pending === 'stopping' || status === 'Stopping') return { enabled: false, reason: 'Already stopping.' }
      if (group === 'ended') return { enabled: false, reason: `Already ${status}.` }
      return { enabled: true }
    case 'delete':
      if (status === 'Released') return { enabled: false, reason: 'Already released.' }
      return { enabled: true }
  }
}

/** The status to show: the user's own pending action wins until the watcher reports a change. */
export function displayStatus(instance: Instance, pending?: PendingAction): string {
  if (pending === 'stopping' && instance.instanceRuntimeInfo.status !== 'Stopped') return 'Stopping…'
  if (pending === 'deleting') return 'Deleting…'
  return instance.instanceRuntimeInfo.status
}

/**
 * The pending marks still worth showing once a new snapshot arrives: a stop until the instance
 * has ended, a delete until it is gone (or Released). Marks for instances no longer listed go.
 */
export function reconcilePending(
  pending: Readonly<Record<string, PendingAction>>,
  instances: readonly Instance[]
): Record<string, PendingAction> {
  const byId = new Map(instances.map((instance) => [instance.instanceMetadata.instanceId, instance]))
  const next: Record<string, PendingAction> = {}
  for (const [id, action] of Object.entries(pending)) {
    const instance = byId.get(id)
    if (!instance) continue
    const status = instance.instanceRuntimeInfo.status
    if (action === 'stopping' && statusGroup(status) === 'ended') continue
    if (action === 'deleting' && status === 'Released') continue
    next[id] = action
  }
  return next
}
