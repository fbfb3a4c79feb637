/**
 * Which row actions make sense for an instance right now. A button for an action that cannot
 * work is disabled (with the reason as its description), never offered and then refused. The
 * rules are src/shared/instance-rules.ts, the same main applies; this adds the words.
 */
import type { Instance } from '../../../shared/api'
import {
  canOpenNotebook,
  canOpenPorts,
  canOpenTerminal,
  canStop,
  canTerminate,
  isRunning,
  isStopping,
  sshEndpoint,
  statusGroup
} from '../../../shared/instance-rules'
import { statusWords } from '../../../shared/status-words'

/** What can be done to an instance, in the order its buttons stand (a row, the details panel). */
export const INSTANCE_ACTIONS = ['notebook', 'terminal', 'ports', 'stop', 'delete'] as const
export type InstanceAction = (typeof INSTANCE_ACTIONS)[number]

/**
 * Each action's words: `short` on a row's small button (what is spoken adds the instance's name),
 * `long` in the details panel. Where the notebook asks for the password once (an API-key session
 * without a notebook sign-in), both say so.
 */
const ACTION_WORDS: Record<InstanceAction, { short: string; long: string }> = {
  notebook: { short: 'Notebook', long: 'Open notebook' },
  terminal: { short: 'Terminal', long: 'Terminal' },
  ports: { short: 'Ports', long: 'Ports' },
  stop: { short: 'Stop', long: 'Stop' },
  delete: { short: 'Delete', long: 'Delete' }
}

export const ASKS_FOR_PASSWORD = 'asks for your password once'

export interface ActionButton {
  action: InstanceAction
  /** What the button shows. */
  label: string
  /** What a screen reader says, with the instance's name (a row) or as shown (the panel). */
  spoken: string
  /** Only where the notebook asks for the password. */
  note?: string
  /** The destructive one is drawn apart. */
  danger: boolean
}

/** The buttons for one instance: on its row (`row`, small, the name in what is spoken) or in its details (`detail`). */
export function actionButtons(context: 'row' | 'detail', name: string, notebookPassword: boolean): ActionButton[] {
  return INSTANCE_ACTIONS.map((action) => {
    const words = ACTION_WORDS[action]
    const asks = action === 'notebook' && notebookPassword
    const label = context === 'row' ? `${words.short}${asks ? '…' : ''}` : `${words.long}${asks ? ` (${ASKS_FOR_PASSWORD})` : ''}`
    return {
      action,
      label,
      spoken: context === 'row' ? `${words.long} ${name}${asks ? ` (${ASKS_FOR_PASSWORD})` : ''}` : label,
      ...(asks ? { note: 'Asks for your password once: notebook pages need it even when you signed in with an API key.' } : {}),
      danger: action === 'delete'
    }
  })
}

/** Set by the list while a command the user started is in flight (shown at once, before the watcher). */
export type PendingAction = 'stopping' | 'deleting'

export interface ActionState {
  enabled: boolean
  /** Why it is disabled, in the user's words. */
  reason?: string
}

const ENABLED: ActionState = { enabled: true }

export function actionState(instance: Instance, action: InstanceAction, pending?: PendingAction): ActionState {
  const status = statusWords(instance.instanceRuntimeInfo.status)
  if (pending === 'deleting') return { enabled: false, reason: 'Being deleted.' }
  switch (action) {
    case 'notebook':
      if (canOpenNotebook(instance)) return ENABLED
      if (!isRunning(instance)) return { enabled: false, reason: `The notebook opens once the instance is Running (now ${status}).` }
      return { enabled: false, reason: 'The cloud has not given this instance a notebook address Cloud Tray can open.' }
    case 'terminal': {
      if (canOpenTerminal(instance)) return ENABLED
      if (!isRunning(instance)) return { enabled: false, reason: `SSH works once the instance is Running (now ${status}).` }
      const endpoint = sshEndpoint(instance)
      return !endpoint.ok && endpoint.reason === 'no-ssh-port'
        ? { enabled: false, reason: 'This instance has no SSH port (22) forwarded.' }
        : { enabled: false, reason: 'The cloud has not said where this instance answers SSH yet.' }
    }
    case 'ports':
      if (canOpenPorts(instance)) return ENABLED
      if (!isRunning(instance)) return { enabled: false, reason: `Ports answer once the instance is Running (now ${status}).` }
      return { enabled: false, reason: 'This instance has no published ports and no SSH port to forward others over.' }
    case 'stop':
      if (pending === 'stopping' || isStopping(instance.instanceRuntimeInfo.status)) return { enabled: false, reason: 'Already stopping.' }
      return canStop(instance) ? ENABLED : { enabled: false, reason: `Already ${status.toLowerCase()}.` }
    case 'delete':
      return canTerminate(instance) ? ENABLED : { enabled: false, reason: 'Already released.' }
  }
}

/** The status to show: the user's own pending action wins until the watcher reports a change. */
export function displayStatus(instance: Instance, pending?: PendingAction): string {
  if (pending === 'stopping' && statusGroup(instance.instanceRuntimeInfo.status) !== 'ended') return 'Stopping…'
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
  // Most snapshots come with nothing pending: no need to index a 1000-instance list for nothing.
  if (Object.keys(pending).length === 0) return pending as Record<string, PendingAction>
  const byId = new Map(instances.map((instance) => [instance.instanceMetadata.instanceId, instance]))
  const next: Record<string, PendingAction> = {}
  for (const [id, action] of Object.entries(pending)) {
    const instance = byId.get(id)
    if (!instance) continue
    if (action === 'stopping' && statusGroup(instance.instanceRuntimeInfo.status) === 'ended') continue
    if (action === 'deleting' && !canTerminate(instance)) continue
    next[id] = action
  }
  return next
}
