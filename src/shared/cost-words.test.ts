import { describe, expect, it } from 'vitest'
import { formatCountdown, formatDuration, formatRate, gpuSummary, planWords, runwayWords } from './cost-words'

const gpu = (utilization: number | null, used: number | null = 0, total: number | null = 81_920) => ({
  utilization,
  memoryUsedMiB: used,
  memoryTotalMiB: total
})

describe('cost words', () => {
  it.each([
    [0, '0 min'],
    [59 * 60_000, '59 min'],
    [3 * 3_600_000 + 12 * 60_000, '3 h 12 min'],
    [5 * 3_600_000, '5 h'],
    [50 * 3_600_000, '2 d 2 h'],
    [72 * 3_600_000, '3 d']
  ])('formatDuration(%d) = %s', (ms, words) => {
    expect(formatDuration(ms)).toBe(words)
  })

  it.each([
    [{ hours: 41.7 }, 24.4, '≈ 41 h left at $24.40/h'],
    [{ hours: 0.5 }, 2, '≈ 30 min left at $2.00/h'],
    [{ hours: 150 }, 1, '≈ 6 d 6 h left at $1.00/h'],
    [{ hours: 0 }, 3, 'balance spent at $3.00/h']
  ])('runwayWords(%o, %d) = %s', (runway, rate, words) => {
    expect(runwayWords(runway, rate)).toBe(words)
  })

  it.each([
    [[gpu(87, 40_960)], 'GPU 87 % · 40 of 80 GiB'],
    [[gpu(3, 100, 640), gpu(97, 200, 640)], '2 GPUs 3–97 % · 300 MiB of 1 GiB'],
    [[gpu(null, null)], 'GPU load unknown'],
    [[], 'no GPU readings']
  ])('gpuSummary %#', (gpus, words) => {
    expect(gpuSummary(gpus)).toBe(words)
  })

  it('rates and plans', () => {
    expect(formatRate(0.004)).toBe('$0.004/h')
    expect(planWords('perWeek', 3)).toBe('3-week plan')
    expect(planWords('constructor', 1)).toBe('constructor plan')
  })
})

describe('the countdown’s time left, one way everywhere (#24)', () => {
  it.each([
    [5 * 60_000, '5:00'],
    [57_000, '0:57'],
    [56_200, '0:57'],
    [0, '0:00'],
    [-3_000, '0:00']
  ])('%i ms: %s', (ms, words) => {
    expect(formatCountdown(ms)).toBe(words)
  })
})
