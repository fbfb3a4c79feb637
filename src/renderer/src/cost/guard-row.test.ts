import { describe, expect, it } from 'vitest'
import type { GuardInstance } from '../../../shared/contract-cost'
import { formatClockTime } from '../../../shared/cost-words'
import { costRow } from '../../../shared/testing/cost-row'
import { gpuCell, guardLine } from './guard-row'

const reading = (...loads: (number | null)[]) => ({
  at: 0,
  gpus: loads.map((utilization) => ({ utilization, memoryUsedMiB: 0, memoryTotalMiB: 1024 }))
})

describe('the guard in an instance row', () => {
  it.each<[string, GuardInstance | undefined, { text: string; title: RegExp }]>([
    ['not billed', undefined, { text: '—', title: /while the instance runs/ }],
    ['not running', costRow({}), { text: '—', title: /while the instance runs/ }],
    [
      'cannot be read',
      costRow({ gpu: { state: 'unavailable', reason: 'host key not trusted yet', history: [] } }),
      { text: '?', title: /host key not trusted yet/ }
    ],
    ['first probe pending', costRow({ gpu: { state: 'probing', history: [] } }), { text: '…', title: /Reading/ }],
    [
      'the busiest GPU',
      costRow({ gpu: { state: 'probing', latest: reading(3, 88.6), history: [] } }),
      { text: '89 %', title: /^2 GPUs 3–89 %/ }
    ],
    ['no load given', costRow({ gpu: { state: 'probing', latest: reading(null), history: [] } }), { text: '?', title: /load unknown/ }]
  ])('GPU cell: %s', (_name, value, expected) => {
    const cell = gpuCell(value)
    expect(cell.text).toBe(expected.text)
    expect(cell.title).toMatch(expected.title)
  })

  it('the line under the name: a countdown first, else the stop rule, else nothing', () => {
    const endsAt = Date.UTC(2026, 0, 1, 14, 5)
    const words = ['auto-stops when idle 30 min (GPU below 5 %)', 'reminds every 8 h running']
    expect(guardLine(costRow({ ruleWords: words, countdown: { rule: 'idle', reason: 'idle', startedAt: 0, endsAt } }))).toEqual({
      text: `stops at ${formatClockTime(endsAt)}`,
      urgent: true
    })
    expect(guardLine(costRow({ ruleWords: words }))).toEqual({ text: words[0], urgent: false })
    expect(guardLine(costRow({ ruleWords: ['reminds every 8 h running'] }))).toBeUndefined()
  })
})
