/**
 * The meter: what an instance costs as far as the app can tell, and what everything billed costs
 * together. Pure: the price comes from `instanceBillingInfo`, the time from the caller (when the
 * app saw the run begin, else `createAtUnixMs`). These are estimates; the provider's bill is the
 * truth (README, "What the cost estimates are").
 */
import type { Instance } from '../../shared/api'
import type { InstanceMeter, PlanTerm } from '../../shared/contract-cost'
import { HOURLY_CHARGE_MODES, isChargeMode } from '../../shared/api'
import { hourlyRate } from '../../shared/money'

const HOUR_MS = 3_600_000

export interface RunStart {
  at: number
  /** `seen`: the app saw the instance start; `created`: it took `createAtUnixMs`. */
  source: 'seen' | 'created'
}

/** The run's start when the app saw nothing earlier: the instance's creation. */
export function createdRunStart(instance: Instance): RunStart {
  return { at: instance.instanceRuntimeInfo.createAtUnixMs, source: 'created' }
}

/** A day, week or month plan: bought for its whole term up front. */
export function planTerm(instance: Instance): PlanTerm | undefined {
  const billing = instance.instanceSpecInfo.instanceBillingInfo
  if (!isChargeMode(billing.chargeMode) || HOURLY_CHARGE_MODES.includes(billing.chargeMode)) return undefined
  const periods = Number.isFinite(billing.duration) && billing.duration > 0 ? billing.duration : 1
  const scheduled = instance.instanceRuntimeInfo.scheduledStopTimestamp
  return {
    committed: positive(billing.price) * periods,
    periods,
    chargeMode: billing.chargeMode,
    // The spec's shown data has 0 for "none".
    endsAt: scheduled !== undefined && scheduled > 0 ? scheduled : null
  }
}

/** The meter of a billed instance at `now`. */
export function meterOf(instance: Instance, start: RunStart, now: number): InstanceMeter {
  const billing = instance.instanceSpecInfo.instanceBillingInfo
  const rate = hourlyRate(billing)
  // The service's clock may run ahead of ours: a run never lasts less than nothing.
  const uptimeMs = Math.max(0, now - start.at)
  const plan = planTerm(instance)
  const spent = (rate * uptimeMs) / HOUR_MS
  return {
    price: billing.price,
    unit: billing.unit,
    chargeMode: billing.chargeMode,
    hourlyRate: rate,
    runStartedAt: start.at,
    runStartSource: start.source,
    uptimeMs,
    // A plan cannot cost more than it committed to, however long the app thinks it has run.
    costSoFar: plan ? Math.min(spent, plan.committed) : spent,
    ...(plan ? { plan } : {})
  }
}

/** Dollars per hour of all these meters together. */
export function burnRate(meters: readonly Pick<InstanceMeter, 'hourlyRate'>[]): number {
  return meters.reduce((sum, meter) => sum + meter.hourlyRate, 0)
}

/** The runway lives with the money rules (shared): the review before a launch reckons it the same way. */
export { runway } from '../../shared/money'

function positive(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0
}
