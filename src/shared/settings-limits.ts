/** Bounds of the settings a person types (main's schema checks them; the Settings form says them). */

/** A start is given at least a minute, and at most four hours, before it counts as stuck. */
export const MIN_STUCK_MINUTES = 1
export const MAX_STUCK_MINUTES = 240
/** The low-balance warning level, in dollars: far above any real account's. */
export const MAX_LOW_BALANCE = 1_000_000
