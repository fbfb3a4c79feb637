/**
 * Simulated time for GPU probes that run over real SSH sockets: the clock moves a step at a time,
 * and after each step this waits (real time) until every probe that fell due has landed. A probe's
 * exec timeout runs on the same clock, so moving it on while a real answer is still on its way
 * would time the probe out in no real time at all. Used by the integration test, the benchmark
 * and the e2e spec.
 */
import type { ManualClock } from '../../../shared/clock'
import type { CostSnapshot } from '../../../shared/contract-cost'
import { READINGS_LOOK_DELAY_MS } from '../cost-guard'
import { FIRST_PROBE_DELAY_MS } from '../gpu-probe'
import { PROBE_PERIOD_MS } from '../idle'

export interface ProbeClockOptions {
  /** The guard's view now (`cost.get`). */
  cost(): Promise<CostSnapshot | undefined>
  /**
   * Simulated time per step. Default 1 s. Keep it well below the exec timeout (exec-runner.ts
   * PROBE_TIMEOUT_MS): a probe that starts inside a step runs while the rest of the step passes.
   */
  stepMs?: number
  /** Real time to let sockets answer after each step. Default 10 ms. */
  settle?: () => Promise<void>
  /** Real time to wait for a probe that fell due before giving up on it. Default 10 s. */
  probeWaitMs?: number
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export function probeClock(clock: ManualClock, options: ProbeClockOptions): (ms: number) => Promise<void> {
  const stepMs = options.stepMs ?? 1_000
  const settle = options.settle ?? (() => pause(10))
  const probeWaitMs = options.probeWaitMs ?? 10_000
  /** Instances seen probing without a sample yet, since when (simulated). */
  const firstSeen = new Map<string, number>()

  const due = (snapshot: CostSnapshot | undefined): string[] => {
    const now = clock.now()
    const pending: string[] = []
    for (const entry of snapshot?.instances ?? []) {
      if (entry.gpu.state !== 'probing') continue
      const latest = entry.gpu.latest
      if (!latest) {
        const since = firstSeen.get(entry.instanceId) ?? now
        firstSeen.set(entry.instanceId, since)
        if (now - since >= FIRST_PROBE_DELAY_MS) pending.push(entry.instanceId)
      } else if (now >= latest.at + PROBE_PERIOD_MS) pending.push(entry.instanceId) // it fires a period after it started, at the latest
    }
    return pending
  }

  const step = async (ms: number): Promise<void> => {
    await clock.advanceAsync(ms, settle)
    const deadline = Date.now() + probeWaitMs
    while (due(await options.cost()).length > 0 && Date.now() < deadline) await pause(10)
  }
  return async (ms) => {
    for (let done = 0; done < ms; done += stepMs) await step(Math.min(stepMs, ms - done))
    // Readings that landed in the last step are looked at a moment later (cost-guard.ts
    // READINGS_LOOK_DELAY_MS): let that moment pass too, so `ms` ends with the rules applied.
    await step(READINGS_LOOK_DELAY_MS)
  }
}
