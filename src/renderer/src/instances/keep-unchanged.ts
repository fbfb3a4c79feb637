/**
 * A new snapshot of the instance list repeats, most of the time, what the window already holds:
 * main sends the whole list on every poll, every object new. Keeping the objects already held
 * for instances whose content did not change lets the list redraw only the rows that changed
 * (a keyed row whose item is the same object does no work at all), and leaves the new copies to
 * die young, which the garbage collector collects for almost nothing, instead of moving a
 * second copy of a 1000-instance list into its old generation.
 */
import equal from 'fast-deep-equal'
import type { Instance } from '../../../shared/api'
import type { InstancesSnapshot } from '../../../shared/contract'

const idOf = (instance: Instance): string => instance.instanceMetadata.instanceId

/** `next`, with `previous`'s objects wherever an instance is unchanged (and its array, if nothing changed). */
export function keepUnchanged(next: InstancesSnapshot | null, previous: InstancesSnapshot | null): InstancesSnapshot | null {
  if (!next || !previous || previous.instances.length === 0) return next
  const held = new Map(previous.instances.map((instance) => [idOf(instance), instance]))
  let allKept = next.instances.length === previous.instances.length
  const instances = next.instances.map((instance, index) => {
    const old = held.get(idOf(instance))
    const kept = old !== undefined && equal(old, instance) ? old : instance
    if (kept !== previous.instances[index]) allKept = false
    return kept
  })
  return { ...next, instances: allKept ? previous.instances : instances }
}
