/**
 * The instance list as the WebSocket carries it: each part many instances share (their type,
 * region, image, price, configuration) is sent once per message and named by its index.
 *
 * Why: over the WebSocket every message is JSON, which has no references, so a 1000-instance
 * list repeated the same five objects a thousand times: 1.3 MB for the page to parse and the
 * garbage collector to move, on the page's one thread, before the first row could paint. Sent
 * once, the list is about a third of that, and the page holds one object per distinct part
 * instead of one per instance. (Electron's IPC clones structurally, which keeps shared objects
 * shared, so it needs no such form.)
 *
 * Runs in Node (ws-server.ts packs) and in the page (transport-ws.ts unpacks); the form is this
 * transport's own: events and stores see an ordinary InstancesSnapshot.
 */
import type { Instance } from '../api'
import type { InstancesSnapshot } from '../contract'

/** The parts of `instanceSpecInfo` that instances share, in the order their indices are sent. */
const SHARED = ['instanceBillingInfo', 'imageInfo', 'instanceConfiguration', 'instanceTypeInfo', 'regionInfo'] as const
type SharedKey = (typeof SHARED)[number]
type Spec = Instance['instanceSpecInfo']

/** An instance with its shared parts replaced by their indices into `WireInstances.parts` (null: the instance has none). */
export interface WireInstance extends Omit<Instance, 'instanceSpecInfo'> {
  instanceSpecInfo: Omit<Spec, SharedKey> & { $parts: (number | null)[] }
}

export interface WireInstances {
  parts: unknown[]
  rows: WireInstance[]
}

export type WireInstancesSnapshot = Omit<InstancesSnapshot, 'instances'> & { instances: WireInstances }

export function packInstances(instances: readonly Instance[]): WireInstances {
  const parts: unknown[] = []
  const indexOf = new Map<string, number>()
  const rows = instances.map((instance): WireInstance => {
    const spec: Record<string, unknown> = { ...instance.instanceSpecInfo }
    const $parts = SHARED.map((key) => {
      const part = spec[key]
      delete spec[key]
      if (part === undefined) return null
      const text = JSON.stringify(part)
      let index = indexOf.get(text)
      if (index === undefined) {
        index = parts.push(part) - 1
        indexOf.set(text, index)
      }
      return index
    })
    return { ...instance, instanceSpecInfo: { ...(spec as Omit<Spec, SharedKey>), $parts } }
  })
  return { parts, rows }
}

/** The instances again; instances that shared a part share one object (treat them as read-only, as every snapshot is). */
export function unpackInstances(wire: WireInstances): Instance[] {
  return wire.rows.map((row) => {
    const { $parts, ...rest } = row.instanceSpecInfo
    const spec: Record<string, unknown> = rest
    SHARED.forEach((key, i) => {
      const index = $parts[i]
      if (index !== null && index !== undefined) spec[key] = wire.parts[index]
    })
    return { ...row, instanceSpecInfo: spec as Spec }
  })
}

export function packSnapshot(snapshot: InstancesSnapshot): WireInstancesSnapshot {
  return { ...snapshot, instances: packInstances(snapshot.instances) }
}

export function unpackSnapshot(wire: WireInstancesSnapshot): InstancesSnapshot {
  return { ...wire, instances: unpackInstances(wire.instances) }
}

/** The event's payload as this transport sends it: only the instance list has a wire form of its own. */
export function toWire(event: string, payload: unknown): unknown {
  return event === 'instances' && payload ? packSnapshot(payload as InstancesSnapshot) : payload
}

export function fromWire(event: string, payload: unknown): unknown {
  return event === 'instances' && payload ? unpackSnapshot(payload as WireInstancesSnapshot) : payload
}
