/**
 * Delays between reconnect attempts: 1, 2, 4, 8, 16, then 30 s, a little jitter so several
 * tabs or instances do not knock in step, and a limit after which the user decides.
 */
export const RECONNECT_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000]
export const MAX_RECONNECT_ATTEMPTS = 12

/** Delay before attempt `attempt` (1-based); undefined once the limit is reached. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number | undefined {
  if (attempt < 1 || attempt > MAX_RECONNECT_ATTEMPTS) return undefined
  const base = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length) - 1] as number
  return Math.round(base * (1 + 0.1 * random()))
}
