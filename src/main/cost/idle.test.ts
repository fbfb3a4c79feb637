import { describe, expect, it } from 'vitest'
import type { GpuSample } from '../../shared/contract-cost'
import { idleEvidence, idleLongEnough, sampleIsIdle } from './idle'

const MIN = 60_000
const gpu = (utilization: number | null) => ({ utilization, memoryUsedMiB: 0, memoryTotalMiB: 81_920 })
const at = (minute: number, ...utilizations: (number | null)[]): GpuSample => ({ at: minute * MIN, gpus: utilizations.map(gpu) })
const missed = (minute: number): GpuSample => ({ at: minute * MIN, gpus: [], missed: 'connection refused' })

describe('sampleIsIdle', () => {
  it.each([
    ['every GPU below', at(0, 0, 4), true],
    ['one GPU at the threshold', at(0, 0, 5), false],
    ['one GPU busy', at(0, 0, 97), false],
    ['a GPU without a reading', at(0, 0, null), false],
    ['no GPUs listed', at(0), false],
    ['a missed probe', missed(0), false]
  ])('%s', (_name, sample, idle) => {
    expect(sampleIsIdle(sample, 5)).toBe(idle)
  })
})

describe('idleEvidence', () => {
  it.each<[string, GpuSample[], number, ReturnType<typeof idleEvidence>]>([
    ['a streak from its first idle sample', [at(0, 50), at(1, 0), at(2, 1), at(3, 0)], 3, { idle: true, since: MIN, latestAt: 3 * MIN }],
    ['busy now', [at(0, 0), at(1, 0), at(2, 80)], 2, { idle: false, why: 'busy' }],
    ['a missed probe ends the streak', [at(0, 0), missed(1), at(2, 0), at(3, 0)], 3, { idle: true, since: 2 * MIN, latestAt: 3 * MIN }],
    ['a missed probe now', [at(0, 0), at(1, 0), missed(2)], 2, { idle: false, why: 'no-readings' }],
    ['a gap in the samples ends the streak', [at(0, 0), at(1, 0), at(4, 0)], 4, { idle: true, since: 4 * MIN, latestAt: 4 * MIN }],
    ['samples that stopped coming', [at(0, 0), at(1, 0)], 5, { idle: false, why: 'no-readings' }],
    ['[N/A] from the GPU', [at(0, null)], 0, { idle: false, why: 'no-readings' }],
    ['nothing yet', [], 0, { idle: false, why: 'no-readings' }]
  ])('%s', (_name, samples, nowMinute, expected) => {
    expect(idleEvidence(samples, 5, nowMinute * MIN)).toEqual(expected)
  })

  it('M full minutes need M + 1 samples a minute apart', () => {
    const two = idleEvidence([at(0, 0), at(1, 0)], 5, MIN)
    const three = idleEvidence([at(0, 0), at(1, 0), at(2, 0)], 5, 2 * MIN)
    expect(idleLongEnough(two, 2)).toBe(false)
    expect(idleLongEnough(three, 2)).toBe(true)
  })
})
