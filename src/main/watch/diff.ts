/**
 * Status transitions between two snapshots: a pure function, table-tested. The first snapshot
 * of a session (previous = null) has no transitions: everything would look "new".
 */
import type { Instance } from '../../shared/api'
import type { Transition } from '../../shared/contract'
import { isSpot } from '../../shared/instance-rules'

export function diffSnapshots(previous: readonly Instance[] | null, next: readonly Instance[]): Transition[] {
  if (previous === null) return []
  const before = new Map(previous.map((i) => [i.instanceMetadata.instanceId, i]))
  const transitions: Transition[] = []
  const seen = new Set<string>()
  for (const instance of next) {
    const id = instance.instanceMetadata.instanceId
    seen.add(id)
    const old = before.get(id)
    const to = instance.instanceRuntimeInfo.status
    const from = old ? old.instanceRuntimeInfo.status : null
    if (from === to) continue
    transitions.push(describe(instance, from, to))
  }
  for (const [id, old] of before) {
    if (!seen.has(id)) transitions.push({ instanceId: id, name: old.instanceSpecInfo.name, from: old.instanceRuntimeInfo.status, to: null })
  }
  return transitions
}

function describe(instance: Instance, from: string | null, to: string): Transition {
  const runtime = instance.instanceRuntimeInfo
  return {
    instanceId: instance.instanceMetadata.instanceId,
    name: instance.instanceSpecInfo.name,
    from,
    to,
    ...(runtime.message ? { message: runtime.message } : {}),
    ...(runtime.diagnosisMessage ? { diagnosisMessage: runtime.diagnosisMessage } : {}),
    ...(isSpot(instance) ? { spot: true as const } : {})
  }
}
