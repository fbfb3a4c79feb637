/** Amounts of money as people read them: US dollars (the real service bills in USD, hpcai-api-facts.md 2.8). */

/**
 * Made once: a number's toLocaleString with options builds a formatter at every call, and the
 * tray and the cost snapshot format amounts at every look (bench/soak.ts found it on top). Made on
 * first use, not when this module loads: a process's first formatter loads ICU's data, ~9 ms of a
 * `cloud-tray` command's ~45 (a CPU profile of `list --json`, which formats no money).
 */
let formatters: { cents: Intl.NumberFormat; mills: Intl.NumberFormat } | undefined

/** "$12.50", "−$3.20"; small rates keep their significant digits ("$0.004"). */
export function formatDollars(value: number): string {
  formatters ??= {
    cents: new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    mills: new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 3 })
  }
  const sign = value < 0 ? '−' : ''
  const size = Math.abs(value)
  return `${sign}$${(size !== 0 && size < 0.01 ? formatters.mills : formatters.cents).format(size)}`
}

const HOURS_PER_PERIOD: Readonly<Record<string, number>> = {
  perHour: 1,
  tidePerHour: 1,
  perDay: 24,
  perWeek: 7 * 24,
  perMonth: 30 * 24
}

/** Hours in one period of a charge mode (a month is 30 days); undefined for a mode the app does not know. */
export function hoursPerPeriod(chargeMode: string): number | undefined {
  return Object.hasOwn(HOURS_PER_PERIOD, chargeMode) ? HOURS_PER_PERIOD[chargeMode] : undefined
}

/**
 * Dollars per hour of something billed `price` per `chargeMode` period: hourly modes their
 * price, day/week/month plans their price spread evenly over the period's hours. 0 for an
 * unknown mode or a price that is not a positive number.
 */
export function hourlyRate(billing: { chargeMode: string; price: number }): number {
  const hours = hoursPerPeriod(billing.chargeMode)
  if (hours === undefined || !Number.isFinite(billing.price) || billing.price <= 0) return 0
  return billing.price / hours
}

/**
 * How long `available` dollars last at `ratePerHour`: absent without a balance or with nothing
 * burning; 0 once the balance is spent. The cost guard's runway, and the launch review's.
 */
export function runway(available: number | undefined, ratePerHour: number): { hours: number; available: number } | undefined {
  if (available === undefined || !Number.isFinite(available) || !(ratePerHour > 0)) return undefined
  return { hours: Math.max(0, available) / ratePerHour, available }
}
