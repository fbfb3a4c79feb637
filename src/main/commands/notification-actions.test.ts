/** A job's notification: its "Open", or a click on it, opens the job's terminal; a failure says so. */
import { describe, expect, it } from 'vitest'
import type { AppNotification } from '../../shared/contract'
import { notificationActivator } from './notification-actions'

function rig(answer: (command: string, input: unknown) => { ok: boolean; message?: string }) {
  const calls: [string, unknown][] = []
  const shown: AppNotification[] = []
  const activate = notificationActivator({
    handle: async (command, input) => {
      calls.push([command, input])
      const outcome = answer(command, input)
      return (
        outcome.ok ? { ok: true, value: undefined } : { ok: false, error: { kind: 'not-allowed', message: outcome.message } }
      ) as never
    },
    platform: { showWindow: () => undefined, showNotification: (notification) => void shown.push(notification) },
    emit: () => undefined
  })
  return { calls, shown, activate }
}

const jobEnded: AppNotification = {
  id: 'job-1',
  kind: 'job',
  title: 'Job failed with status 7: «sleep 3; exit 7»',
  body: 'On «trainer».',
  instanceId: 'i-1',
  jobId: 'abc123def',
  actions: [{ id: 'open-job', label: 'Open' }]
}

const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

describe('a job’s notification', () => {
  it('Open and a click both open the job’s terminal', async () => {
    const { calls, activate } = rig(() => ({ ok: true }))
    activate(jobEnded, 'open-job')
    activate(jobEnded)
    await settled()
    expect(calls).toEqual([
      ['jobs.open', { jobId: 'abc123def' }],
      ['jobs.open', { jobId: 'abc123def' }]
    ])
  })

  it('says so when the job cannot be opened', async () => {
    const { shown, activate } = rig(() => ({ ok: false, message: 'That job is no longer known.' }))
    activate(jobEnded, 'open-job')
    await settled()
    expect(shown.map((notice) => [notice.title, notice.body])).toEqual([['Could not open the job', 'That job is no longer known.']])
  })
})
