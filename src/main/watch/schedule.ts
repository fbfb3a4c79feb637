/**
 * When to poll next: a pure function of what the watcher knows, so the whole policy is a table
 * test. Fast while something is changing (or was just asked to change), steady otherwise, and
 * exponential backoff with jitter while the API fails.
 */
import type { PollMode } from '../../shared/contract'

/** After a create, stop or terminate the list changes soon; poll fast for this long. */
export const RECENT_ACTION_WINDOW_MS = 60_000
export const BACKOFF_BASE_MS = 5_000
export const BACKOFF_MAX_MS = 5 * 60_000

export interface ScheduleInput {
  now: number
  fastMs: number
  steadyMs: number
  /** Any instance in a transitioning status (Starting, Initializing, Stopping, …). */
  anyTransitioning: boolean
  /** Unix ms of the last create/stop/terminate this app made; undefined: none. */
  lastActionAt: number | undefined
  /** Failed polls in a row (network, server, unexpected answers). */
  consecutiveFailures: number
  /** A number in [0, 1), injected for the jitter. */
  random: number
}

export interface ScheduleDecision {
  mode: Exclude<PollMode, 'paused'>
  delayMs: number
}

export function nextPoll(input: ScheduleInput): ScheduleDecision {
  if (input.consecutiveFailures > 0) {
    return { mode: 'backoff', delayMs: backoffDelay(input.consecutiveFailures, input.random) }
  }
  const recentAction = input.lastActionAt !== undefined && input.now - input.lastActionAt < RECENT_ACTION_WINDOW_MS
  if (input.anyTransitioning || recentAction) return { mode: 'fast', delayMs: input.fastMs }
  return { mode: 'steady', delayMs: input.steadyMs }
}

/**
 * "Equal jitter": half the exponential step is fixed, half random (from `baseMs`, doubling up to
 * `maxMs`; the availability watch backs off from its own interval). Clients that failed together
 * (an outage) spread out on recovery, and no delay is ever shorter than half its step.
 */
export function backoffDelay(failures: number, random: number, baseMs = BACKOFF_BASE_MS, maxMs = BACKOFF_MAX_MS): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 20))
  return Math.round(step / 2 + (step / 2) * Math.min(Math.max(random, 0), 1))
}
