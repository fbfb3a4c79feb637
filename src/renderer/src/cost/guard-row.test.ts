import { describe, expect, it } from 'vitest'
import type { GuardInstance } from '../../../shared/contract-cost'
import { formatClockTime } from '../../../shared/cost-words'
import { NO_RULES } from '../../../shared/guard-rules'
import { gpuCell, guardLine } from './guard-row'

const entry = (over: Partial<GuardInstance>): GuardInstance => ({
  instanceId: 'a',
  name: 'train',
  meter: {
    price: 2,
    unit: '$',
    chargeMode: 'perHour',
    hourlyRate: 2,
    runStartedAt: 0,
    runStartSource: 'created',
    uptimeMs: 0,
    costSoFar: 0
  },
  rules: NO_RULES,
  ruleWords: [],
  gpu: { state: 'off' },
  ...over
})
const reading = (...loads: (number | null)[]) => ({
  at: 0,
  gpus: loads.map((utilization) => ({ utilization, memoryUsedMiB: 0, memoryTotalMiB: 1024 }))
})

describe('the guard in an instance row', () => {
  it.each<[string, GuardInstance | undefined, { text: string; title: RegExp }]>([
    ['not billed', undefined, { text: '—', title: /while the instance runs/ }],
    ['not running', entry({}), { text: '—', title: /while the instance runs/ }],
    [
      'cannot be read',
      entry({ gpu: { state: 'unavailable', reason: 'host key not trusted yet', history: [] } }),
      { text: '?', title: /host key not trusted yet/ }
    ],
    ['first probe pending', entry({ gpu: { state: 'probing', history: [] } }), { text: '…', title: /Reading/ }],
    [
      'the busiest GPU',
      entry({ gpu: { state: 'probing', latest: reading(3, 88.6), history: [] } }),
      { text: '89 %', title: /^2 GPUs 3–89 %/ }
    ],
    ['no load given', entry({ gpu: { state: 'probing', latest: reading(null), history: [] } }), { text: '?', title: /load unknown/ }]
  ])('GPU cell: %s', (_name, value, expected) => {
    const cell = gpuCell(value)
    expect(cell.text).toBe(expected.text)
    expect(cell.title).toMatch(expected.title)
  })

  it('the line under the name: a countdown first, else the stop rule, else nothing', () => {
    const endsAt = Date.UTC(2026, 0, 1, 14, 5)
    const words = ['auto-stops when idle 30 min (GPU below 5 %)', 'reminds every 8 h running']
    expect(guardLine(entry({ ruleWords: words, countdown: { rule: 'idle', reason: 'idle', startedAt: 0, endsAt } }))).toEqual({
      text: `stops at ${formatClockTime(endsAt)}`,
      urgent: true
    })
    expect(guardLine(entry({ ruleWords: words }))).toEqual({ text: words[0], urgent: false })
    expect(guardLine(entry({ ruleWords: ['reminds every 8 h running'] }))).toBeUndefined()
  })
})
