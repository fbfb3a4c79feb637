/**
 * Quitting has an upper bound: the app's clean-up (core.stop: connections closed, files flushed)
 * gets QUIT_BOUND_MS, then the process leaves anyway, so a hang in clean-up never leaves a
 * windowless process with a live tray behind. Pure over a clock, for its test.
 */
import type { Clock } from '../../shared/clock'

export const QUIT_BOUND_MS = 5_000

/** Runs `cleanUp`; `leave` is called once: when it settles, or at the bound, whichever comes first. */
export function boundedQuit(cleanUp: () => Promise<void>, leave: (timedOut: boolean) => void, clock: Clock, boundMs = QUIT_BOUND_MS): void {
  let left = false
  const once = (timedOut: boolean): void => {
    if (left) return
    left = true
    clock.clearTimeout(timer)
    leave(timedOut)
  }
  const timer = clock.setTimeout(() => once(true), boundMs)
  void cleanUp().then(
    () => once(false),
    () => once(false)
  )
}
