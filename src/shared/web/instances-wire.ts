/**
 * The instance list as the WebSocket carries it: as columns (columns.ts), one array per field,
 * with each part many instances share (their type, region, image, price, configuration) sent
 * once per message and named by its index.
 *
 * Why: over the WebSocket every message is JSON, which has no references, so a 1000-instance
 * list repeated the same five objects a thousand times (1.3 MB), and the page's JSON.parse built
 * ten keyed objects per instance before the first row could paint. Sending the shared parts once
 * brought it to 0.53 MB; as columns it is 0.25 MB, and in Chromium it parses and is rebuilt in
 * about a third of the time (1000 instances: 1.6 ms against 4.3 ms), most of the page's work
 * that grew with the list. (Electron's IPC clones structurally, which keeps shared objects
 * shared and parses nothing, so it needs no such form.)
 *
 * Runs in Node (ws-server.ts packs) and in the page (transport-ws.ts unpacks); the form is this
 * transport's own: events and stores see an ordinary InstancesSnapshot.
 */
import type { Instance } from '../api'
import type { InstancesSnapshot } from '../contract'
import { fromColumns, toColumns, type WireColumns } from './columns'

/**
 * The parts instances share: their type, region, image, price and configuration; the owner (one
 * account's instances all have the same); and the mounted storages (most often none, or the
 * team's one volume). The page holds one object for each distinct value, which is also fewer
 * objects for its garbage collector to move while the list is new.
 */
const SHARED: ReadonlySet<string> = new Set([
  ...['instanceBillingInfo', 'imageInfo', 'instanceConfiguration', 'instanceTypeInfo', 'regionInfo', 'remoteStorages'].map(
    (key) => `instanceSpecInfo.${key}`
  ),
  'instanceMetadata.instanceAuth'
])

export type WireInstances = WireColumns

export type WireInstancesSnapshot = Omit<InstancesSnapshot, 'instances'> & { instances: WireInstances }

export function packInstances(instances: readonly Instance[]): WireInstances {
  return toColumns(instances, SHARED)
}

/** The instances again; instances that shared a part share one object (treat them as read-only, as every snapshot is). */
export function unpackInstances(wire: WireInstances): Instance[] {
  return fromColumns<Instance>(wire)
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
