/**
 * Whether an instance's GPUs are idle, judged only from evidence: probe samples once a minute.
 * A streak of idle samples starts at its first sample and lasts while every later sample is idle
 * and came on time. A busy GPU, a probe that failed (SSH down), a reading the GPU would not give
 * (`[N/A]`) or a gap in the samples ends it: missing data never counts as idle.
 */
import type { GpuSample } from '../../shared/contract-cost'

/** How often a running instance's GPUs are read. */
export const PROBE_PERIOD_MS = 60_000
/** Samples further apart than this are a gap (a probe was missed or came very late). */
const MAX_GAP_MS = PROBE_PERIOD_MS * 1.5

/** Every GPU read, and every one below `belowPercent`. */
export function sampleIsIdle(sample: GpuSample, belowPercent: number): boolean {
  if (sample.missed !== undefined || sample.gpus.length === 0) return false
  return sample.gpus.every((gpu) => gpu.utilization !== null && gpu.utilization < belowPercent)
}

export type IdleEvidence =
  /** Idle from `since` to the latest sample, `latestAt`. */
  | { idle: true; since: number; latestAt: number }
  /** Not idle now, and why, in the user's words. */
  | { idle: false; why: 'busy' | 'no-readings' }

/**
 * The current idle streak at `now`, from samples oldest first. The latest sample must be recent:
 * probes that stopped coming are not evidence of anything.
 */
export function idleEvidence(samples: readonly GpuSample[], belowPercent: number, now: number): IdleEvidence {
  const latest = samples.at(-1)
  if (!latest || latest.missed !== undefined || now - latest.at > MAX_GAP_MS) return { idle: false, why: 'no-readings' }
  if (!sampleIsIdle(latest, belowPercent))
    return { idle: false, why: latest.gpus.length === 0 || latest.gpus.some((gpu) => gpu.utilization === null) ? 'no-readings' : 'busy' }
  let since = latest.at
  for (let index = samples.length - 2; index >= 0; index--) {
    const sample = samples[index]!
    if (since - sample.at > MAX_GAP_MS || !sampleIsIdle(sample, belowPercent)) break
    since = sample.at
  }
  return { idle: true, since, latestAt: latest.at }
}

/** Whether the evidence shows `forMinutes` full minutes of idle GPUs. */
export function idleLongEnough(evidence: IdleEvidence, forMinutes: number): boolean {
  return evidence.idle && evidence.latestAt - evidence.since >= forMinutes * 60_000
}
