/**
 * How a stock watch reads, the same in the tray and the window (#26): its state, and what it
 * will do when stock comes.
 */
import type { StockWatch } from './contract-launch'
import { formatClockTime, formatRate } from './cost-words'

export const WATCH_STATE_WORDS: Record<StockWatch['state'], string> = {
  waiting: 'waiting',
  'in-stock': 'in stock now',
  launching: 'launching…',
  'needs-you': 'needs you'
}

/** "Tells you when it is in stock", "Launches by itself at ≤ $3.00/h until 18:00". */
export function watchPlanWords(watch: StockWatch): string {
  if (!watch.auto) return 'Tells you when it is in stock'
  const what = watch.origin.kind === 'reclaim' ? `Relaunches «${watch.origin.name}»` : 'Launches by itself'
  return `${what} at ≤ ${formatRate(watch.auto.maxPricePerHour)} until ${formatClockTime(watch.auto.deadline)}`
}
