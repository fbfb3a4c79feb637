import { describe, expect, it } from 'vitest'
import type { Instance } from '../../shared/api'
import { makeInstance } from '../../shared/testing/instance'
import { burnRate, createdRunStart, meterOf, planTerm, runway } from './meter'

const HOUR = 3_600_000

function billed(chargeMode: string, price: number, duration = 1, runtime: Partial<Instance['instanceRuntimeInfo']> = {}): Instance {
  const instance = makeInstance({ id: 'i-1', name: 'train', status: 'Running', createdAt: 1_000 })
  Object.assign(instance.instanceRuntimeInfo, runtime)
  instance.instanceSpecInfo.instanceBillingInfo = { chargeMode, duration, price, unit: '$', type: 'On-Demand' }
  return instance
}

describe('meterOf', () => {
  it.each([
    // mode, price, hours run, hourly rate, cost so far
    ['perHour', 2.49, 3, 2.49, 7.47],
    ['tidePerHour', 1.74, 0.5, 1.74, 0.87],
    ['perDay', 48, 6, 2, 12],
    ['perWeek', 168, 10, 1, 10],
    ['perMonth', 720, 1, 1, 1],
    // A mode the app does not know has no hourly figure rather than a wrong one.
    ['perFortnight', 100, 5, 0, 0]
  ])('%s at %d: rate and cost so far after %d h', (mode, price, hours, rate, cost) => {
    const instance = billed(mode, price)
    const meter = meterOf(instance, createdRunStart(instance), 1_000 + hours * HOUR)
    expect(meter.hourlyRate).toBeCloseTo(rate, 6)
    expect(meter.costSoFar).toBeCloseTo(cost, 6)
    expect(meter.uptimeMs).toBe(hours * HOUR)
    expect(meter).toMatchObject({ price, unit: '$', chargeMode: mode, runStartedAt: 1_000, runStartSource: 'created' })
  })

  it('counts from when the app saw the run begin when it did', () => {
    const instance = billed('perHour', 2)
    const meter = meterOf(instance, { at: 1_000 + 5 * HOUR, source: 'seen' }, 1_000 + 6 * HOUR)
    expect(meter).toMatchObject({ runStartSource: 'seen', uptimeMs: HOUR, costSoFar: 2 })
  })

  it('never runs backwards when the service clock is ahead of ours', () => {
    const instance = billed('perHour', 2, 1, { createAtUnixMs: 10 * HOUR })
    expect(meterOf(instance, createdRunStart(instance), 9 * HOUR)).toMatchObject({ uptimeMs: 0, costSoFar: 0 })
  })

  it('caps a plan at what it committed, however long it seems to run', () => {
    const instance = billed('perDay', 48, 2)
    const meter = meterOf(instance, createdRunStart(instance), 1_000 + 100 * HOUR)
    expect(meter.costSoFar).toBe(96)
    expect(meter.plan).toEqual({ committed: 96, periods: 2, chargeMode: 'perDay', endsAt: null })
  })
})

describe('planTerm', () => {
  it.each([
    ['perHour', undefined],
    ['tidePerHour', undefined],
    ['perWeek', { committed: 3 * 300, periods: 3, chargeMode: 'perWeek', endsAt: 5_000 }]
  ])('%s', (mode, expected) => {
    expect(planTerm(billed(mode, 300, 3, { scheduledStopTimestamp: 5_000 }))).toEqual(expected)
  })

  it('reads a scheduled stop of 0 as none, and a bad price or duration as nothing committed', () => {
    expect(planTerm(billed('perMonth', Number.NaN, 0, { scheduledStopTimestamp: 0 }))).toEqual({
      committed: 0,
      periods: 1,
      chargeMode: 'perMonth',
      endsAt: null
    })
  })
})

describe('totals', () => {
  it('adds the hourly rates of everything billed', () => {
    expect(burnRate([{ hourlyRate: 19.92 }, { hourlyRate: 2.49 }, { hourlyRate: 1.99 }])).toBeCloseTo(24.4, 6)
    expect(burnRate([])).toBe(0)
  })

  it.each([
    [1000, 24.4, 1000 / 24.4],
    [-5, 24.4, 0],
    [1000, 0, undefined],
    [undefined, 24.4, undefined],
    [Number.NaN, 24.4, undefined]
  ])('runway of %s at %s/h', (available, rate, hours) => {
    const result = runway(available, rate)
    if (hours === undefined) expect(result).toBeUndefined()
    else expect(result?.hours).toBeCloseTo(hours, 6)
  })
})
