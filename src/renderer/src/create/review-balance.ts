/**
 * The review's comparison of the cost with the balance (#24): how long the balance lasts at this
 * price (the cost guard's runway, shared/money.ts), with what already runs too, and a warning
 * before Launch when the plan costs more than the balance, or an hourly one would spend it
 * within the hour. Pure; ReviewBalance.svelte shows it beside the cost.
 */
import { formatRate, runwayLeft } from '../../../shared/cost-words'
import { formatDollars, runway } from '../../../shared/money'

export interface BalanceInput {
  /** What this launch costs per hour (a plan spread over its hours); undefined when the price is unknown. */
  hourlyRate: number | undefined
  /** A day, week or month plan: its whole price, paid for the plan's term. */
  planTotal?: number | undefined
  /** What can be spent (the balance with vouchers and credits); undefined when it could not be read. */
  spendable: number | undefined
  /** What everything billed already costs per hour. */
  runningPerHour: number
}

export interface BalanceCheck {
  /** How long the balance lasts, in one sentence. */
  text: string
  /** Said before Launch when the balance does not cover the launch. */
  warning?: string
}

export function balanceCheck(input: BalanceInput): BalanceCheck | undefined {
  const { hourlyRate, planTotal, spendable, runningPerHour } = input
  if (hourlyRate === undefined || !(hourlyRate > 0)) return undefined
  if (spendable === undefined) return { text: 'Your balance could not be read, so Cloud Tray cannot say how long it lasts at this price.' }
  const alone = runway(spendable, hourlyRate)!
  const together = runningPerHour > 0 ? runway(spendable, hourlyRate + runningPerHour)! : undefined
  const balance = formatDollars(spendable)
  const text =
    spendable <= 0
      ? `Your balance is ${balance}: nothing is left to pay for this.`
      : `Your balance of ${balance} lasts ${runwayLeft(alone).replace(' left', '')} at this price` +
        (together ? `, ${runwayLeft(together).replace(' left', '')} with what already runs (${formatRate(runningPerHour)}).` : '.')
  if (spendable <= 0) return { text, warning: 'Top up your balance before you launch.' }
  if (planTotal !== undefined && planTotal > spendable) {
    return {
      text,
      warning: `This plan costs ${formatDollars(planTotal)}, more than your balance of ${balance}. Top up first, or choose a shorter plan or a cheaper type.`
    }
  }
  if (planTotal === undefined && (together ?? alone).hours < 1) {
    return {
      text,
      warning: `At ${formatRate(hourlyRate + runningPerHour)} your balance of ${balance} is spent within the hour. Top up first, or choose a cheaper type.`
    }
  }
  return { text }
}
