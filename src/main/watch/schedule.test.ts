import { describe, expect, it } from 'vitest'
import { BACKOFF_MAX_MS, backoffDelay, nextPoll, type ScheduleInput } from './schedule'

const base: ScheduleInput = {
  now: 1_000_000,
  fastMs: 2_500,
  steadyMs: 30_000,
  anyTransitioning: false,
  lastActionAt: undefined,
  consecutiveFailures: 0,
  random: 0.5
}

describe('nextPoll', () => {
  it.each<[string, Partial<ScheduleInput>, { mode: string; delayMs: number }]>([
    ['steady when nothing changes', {}, { mode: 'steady', delayMs: 30_000 }],
    ['fast while an instance is transitioning', { anyTransitioning: true }, { mode: 'fast', delayMs: 2_500 }],
    ['fast within 60 s of an action', { lastActionAt: 1_000_000 - 59_999 }, { mode: 'fast', delayMs: 2_500 }],
    ['steady once the action is 60 s old', { lastActionAt: 1_000_000 - 60_000 }, { mode: 'steady', delayMs: 30_000 }],
    ['backoff wins over fast', { anyTransitioning: true, consecutiveFailures: 1, random: 0 }, { mode: 'backoff', delayMs: 2_500 }],
    ['backoff step 1, top of jitter', { consecutiveFailures: 1, random: 1 }, { mode: 'backoff', delayMs: 5_000 }],
    ['backoff step 3, middle', { consecutiveFailures: 3, random: 0.5 }, { mode: 'backoff', delayMs: 15_000 }],
    ['backoff capped at 5 min', { consecutiveFailures: 30, random: 1 }, { mode: 'backoff', delayMs: 300_000 }],
    ['settings intervals are used', { fastMs: 1_000, steadyMs: 60_000 }, { mode: 'steady', delayMs: 60_000 }]
  ])('%s', (_name, input, expected) => {
    expect(nextPoll({ ...base, ...input })).toEqual(expected)
  })
})

describe('backoffDelay', () => {
  it('doubles per failure, never below half its step, never above the cap', () => {
    let previousStep = 0
    for (let failures = 1; failures <= 12; failures++) {
      const low = backoffDelay(failures, 0)
      const high = backoffDelay(failures, 0.999999)
      expect(high).toBeLessThanOrEqual(BACKOFF_MAX_MS)
      expect(low).toBeGreaterThanOrEqual(Math.round(high / 2) - 1)
      expect(high).toBeGreaterThanOrEqual(previousStep)
      previousStep = high
    }
    expect(backoffDelay(12, 1)).toBe(BACKOFF_MAX_MS)
  })
})
