/** What an instance says of its jobs, parsed: the wrapper's record, its session, its last lines; hostile lines dropped. */
import { describe, expect, it } from 'vitest'
import { FIELD } from '../ssh/sessions/remote-scripts'
import { elapsedWords } from '../../shared/job-words'
import { parseJobReports, stateOf } from './job-status'

const line = (...fields: string[]): string => fields.join(FIELD)

describe('a job’s report from its instance', () => {
  it('reads an ended job, a running one, a missing one, and drops what does not fit', () => {
    const reports = parseJobReports(
      [
        line('J', 'aaaaaa1', '1700000000', '1700000003', '7', 'yes'),
        line('T', 'aaaaaa1', 'epoch 3 loss 0.1\x1b[0m'),
        line('J', 'bbbbbb2', '1700000000', '', '', 'yes'),
        line('M', 'cccccc3'),
        line('J', 'dddddd4', '1700000000', '', '', 'no'),
        line('J', '../../x', '1', '2', '0', 'yes'),
        line('J', 'eeeeee5', 'soon', '', 'none', 'yes', 'extra')
      ].join('\n')
    )
    expect([...reports.keys()]).toEqual(['aaaaaa1', 'bbbbbb2', 'cccccc3', 'dddddd4'])
    expect(reports.get('aaaaaa1')).toEqual({
      jobId: 'aaaaaa1',
      missing: false,
      startedAt: 1_700_000_000_000,
      endedAt: 1_700_000_003_000,
      exitStatus: 7,
      sessionAlive: true,
      lastLines: ['epoch 3 loss 0.1 [0m']
    })
    expect(['aaaaaa1', 'bbbbbb2', 'cccccc3', 'dddddd4'].map((id) => stateOf(reports.get(id)!))).toEqual([
      'failed',
      'running',
      'lost',
      'lost'
    ])
  })

  it('says elapsed time in seconds while short', () => {
    expect([3_000, 59_000, 125_000, 600_000, 3_600_000].map(elapsedWords)).toEqual(['3 s', '59 s', '2 min 5 s', '10 min', '1 h'])
  })
})
