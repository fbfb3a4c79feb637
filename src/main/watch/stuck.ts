/**
 * Stuck starts, as the watcher sees them poll after poll: since when each booting instance has
 * been in its status (and phase), which are stuck now (shared/instance-rules.ts stuckStart), and
 * which became stuck with the latest poll. An instance is told once per episode: once it moves
 * (another status or phase) or leaves the list, it may be told again if it sticks again.
 */
import type { Instance } from '../../shared/api'
import type { StuckStart } from '../../shared/contract'
import { stuckStart } from '../../shared/instance-rules'

interface Seen {
  /** Status and phase: a change in either is progress. */
  state: string
  since: number
}

export class StuckStarts {
  private readonly seen = new Map<string, Seen>()
  private stuck: StuckStart[] = []
  private readonly told = new Set<string>()

  /** Judges the new list (fetched at `now`); answers the starts that became stuck with it. */
  update(instances: readonly Instance[], now: number, thresholdMs: number): StuckStart[] {
    const present = new Set<string>()
    const stuck: StuckStart[] = []
    for (const instance of instances) {
      const id = instance.instanceMetadata.instanceId
      if (present.has(id)) continue
      present.add(id)
      const runtime = instance.instanceRuntimeInfo
      const state = `${runtime.status}\u0000${runtime.phase ?? ''}`
      let seen = this.seen.get(id)
      if (!seen || seen.state !== state) {
        seen = { state, since: now }
        this.seen.set(id, seen)
        this.told.delete(id)
      }
      const reason = stuckStart(instance, seen.since, now, thresholdMs)
      if (!reason) {
        this.told.delete(id)
        continue
      }
      stuck.push({
        instanceId: id,
        name: instance.instanceSpecInfo.name,
        status: runtime.status,
        reason,
        since: seen.since,
        ...(runtime.diagnosisReason ? { diagnosisReason: runtime.diagnosisReason } : {}),
        ...(runtime.diagnosisMessage ? { diagnosisMessage: runtime.diagnosisMessage } : {})
      })
    }
    for (const id of [...this.seen.keys()]) {
      if (!present.has(id)) {
        this.seen.delete(id)
        this.told.delete(id)
      }
    }
    this.stuck = stuck
    const fresh = stuck.filter((start) => !this.told.has(start.instanceId))
    for (const start of fresh) this.told.add(start.instanceId)
    return fresh
  }

  current(): StuckStart[] {
    return this.stuck
  }

  has(instanceId: string): boolean {
    return this.stuck.some((start) => start.instanceId === instanceId)
  }

  clear(): void {
    this.seen.clear()
    this.told.clear()
    this.stuck = []
  }
}
