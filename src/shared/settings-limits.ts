/** Bounds of the settings a person types (main's schema checks them; the Settings form says them). */

/** A start is given at least a minute, and at most four hours, before it counts as stuck. */
export const MIN_STUCK_MINUTES = 1
export const MAX_STUCK_MINUTES = 240
/** The low-balance warning level, in dollars: far above any real account's. */
export const MAX_LOW_BALANCE = 1_000_000
/** The poller's intervals, in ms: a hand-edited file can neither hammer the API nor make the app look dead. */
export const MIN_FAST_POLL_MS = 1_000
export const MAX_FAST_POLL_MS = 60_000
export const MIN_STEADY_POLL_MS = 5_000
export const MAX_STEADY_POLL_MS = 600_000
/** The terminal's font size, in px. */
export const MIN_TERMINAL_FONT_SIZE = 8
export const MAX_TERMINAL_FONT_SIZE = 32

/** Whether main takes these poll intervals, and the steady one is no shorter than the fast one. */
export function pollIntervalsFit(fastMs: number, steadyMs: number): boolean {
  const within = (ms: number, min: number, max: number): boolean => ms >= min && ms <= max
  return (
    within(fastMs, MIN_FAST_POLL_MS, MAX_FAST_POLL_MS) && within(steadyMs, MIN_STEADY_POLL_MS, MAX_STEADY_POLL_MS) && steadyMs >= fastMs
  )
}

/** What the Settings form says when they do not fit. */
export const POLL_INTERVALS_WORDS = `Use ${MIN_FAST_POLL_MS / 1000}–${MAX_FAST_POLL_MS / 1000} seconds for the fast interval and ${MIN_STEADY_POLL_MS / 1000}–${MAX_STEADY_POLL_MS / 1000} seconds for the steady one, no shorter than the fast one.`
