/**
 * Whether a snapshot answered by a call (`instances.get`, `instances.refresh`) is older than the
 * one shown. Main answers a call with the snapshot of that moment, but a watcher event sent
 * after it may overtake the answer (the call resolves a tick later). Events arrive in order and
 * are always applied; an answer that would roll the list back to an earlier poll is not.
 */
import type { InstancesSnapshot } from '../../../shared/contract'

export function isStaleAnswer(answer: InstancesSnapshot, shown: InstancesSnapshot | null): boolean {
  if (shown === null || shown.fetchedAt === null) return false
  return answer.fetchedAt === null || answer.fetchedAt < shown.fetchedAt
}
