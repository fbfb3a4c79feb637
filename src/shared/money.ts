/** Amounts of money as people read them: US dollars (the real service bills in USD, hpcai-api-facts.md 2.8). */

/** "$12.50", "−$3.20"; small rates keep their significant digits ("$0.004"). */
export function formatDollars(value: number): string {
  const sign = value < 0 ? '−' : ''
  const size = Math.abs(value)
  const digits = size !== 0 && size < 0.01 ? 3 : 2
  return `${sign}$${size.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: digits })}`
}
