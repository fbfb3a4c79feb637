import { describe, expect, it } from 'vitest'
import type { InstancesSnapshot } from '../../../shared/contract'
import { isStaleAnswer } from './snapshot-order'

const at = (fetchedAt: number | null): InstancesSnapshot => ({ instances: [], fetchedAt, mode: 'steady' })

describe('isStaleAnswer', () => {
  it.each([
    ['nothing shown yet', at(null), null, false],
    ['shown list never polled', at(null), at(null), false],
    ['answer from before the first poll, list already polled', at(null), at(1_000), true],
    ['answer from an earlier poll', at(900), at(1_000), true],
    ['answer from the same poll', at(1_000), at(1_000), false],
    ['answer from a later poll', at(1_100), at(1_000), false]
  ] as const)('%s', (_case, answer, shown, stale) => {
    expect(isStaleAnswer(answer, shown)).toBe(stale)
  })
})
