/**
 * Jobs against the Sandbox (the emulator's own SSH servers, with tmux): `sleep 3; exit 7` with
 * "Stop the instance when it ends". The notification says it failed with status 7, the cost
 * guard's countdown runs (on the core's clock, advanced by the test), and the instance stops.
 * Then the same with the app stopped while the job ends: started again, it still reports the
 * outcome and still offers the stop.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AppNotification } from '../../shared/contract'
import { posixShellMissing, skipBecause } from '../../shared/node/testing/platform-support'
import { pollUntil as until } from '../../shared/node/testing/poll-until'
import { splitClock } from '../ssh/testing/split-clock'
import { tmuxMissing } from '../ssh/testing/tmux'
import type { SandboxCore } from '../testing/sandbox-core'
import { sandboxTerminals } from '../testing/sandbox-terminals'
import type { TerminalView } from '../testing/terminal-view'
import { JOB_RETRY_MS } from './jobs'

const COUNTDOWN_MS = 5 * 60_000

describe.skipIf(skipBecause(posixShellMissing(), 'jobs in the Sandbox') || tmuxMissing())(
  'jobs against the Sandbox',
  { timeout: 90_000 },
  () => {
    const rig = sandboxTerminals('cloudtray-jobs-')

    async function start(name: string | undefined, dataDir: string) {
      // Reconnects (1–2 s, while a new instance's SSH port binds) in real time; countdowns and waits on the test.
      const { clock, manual } = splitClock(5_000)
      const { sandbox, view } = await rig.start(dataDir, { ...(name ? { instanceName: name } : {}), clock })
      return { sandbox, view, manual }
    }

    /** A terminal once, so the instance's host key is trusted (exec never asks). */
    async function trustHostKey(sandbox: SandboxCore, view: TerminalView, instanceId: string): Promise<void> {
      const { terminalId } = await sandbox.call('ssh.open', { instanceId, cols: 100, rows: 20 })
      await view.waitForState(terminalId, 'connected')
      await sandbox.call('ssh.close', { terminalId, end: true })
    }

    function jobNotice(sandbox: SandboxCore): AppNotification | undefined {
      return sandbox.platform.notifications.find((notification) => notification.kind === 'job')
    }

    async function statusOf(sandbox: SandboxCore, instanceId: string): Promise<string | undefined> {
      const snapshot = await sandbox.call('instances.refresh')
      return snapshot.instances.find((instance) => instance.instanceMetadata.instanceId === instanceId)?.instanceRuntimeInfo.status
    }

    it('tells a failed job with its status, counts down, and stops the instance', async () => {
      const { sandbox, view, manual } = await start('job-runner', await rig.freshFolder())
      const { instanceId } = sandbox
      await trustHostKey(sandbox, view, instanceId)

      const job = await sandbox.call('jobs.run', { instanceId, command: 'sleep 3; exit 7', folder: '~', stopWhenDone: true })
      expect(job).toMatchObject({ state: 'running', command: 'sleep 3; exit 7', stopWhenDone: true })
      const notice = await until('the job’s notification', () => jobNotice(sandbox))
      const name = (await sandbox.call('instances.get')).instances.find((each) => each.instanceMetadata.instanceId === instanceId)!
        .instanceSpecInfo.name
      expect(notice).toMatchObject({
        title: 'Job failed with status 7: «sleep 3; exit 7»',
        // The instance stamps a job's start and end in whole seconds (`date +%s`): a 3 s sleep that
        // starts late in a second ends 4 stamps later (seen under a clean clone's full suite).
        body: expect.stringMatching(
          new RegExp(
            `^On «${name}» after [34] s\\. Cloud Tray stops «${name}» in 5 min, as you asked: choose Keep running to leave it on\\.$`
          )
        ),
        jobId: job.jobId,
        actions: [{ id: 'open-job', label: 'Open' }]
      })
      const [listed] = await sandbox.call('jobs.list', { instanceId })
      expect(listed).toMatchObject({ jobId: job.jobId, state: 'failed', exitStatus: 7, sessionAlive: true })

      // The cost guard's countdown, with Keep running offered; when it runs out, the instance stops.
      const countdown = sandbox.platform.notifications.find((notification) => notification.kind === 'countdown')
      expect(countdown).toMatchObject({ title: `«${name}» stops in 5 min`, actions: [{ id: 'keep-running' }, { id: 'stop-now' }] })
      expect((await sandbox.call('cost.get')).instances.find((entry) => entry.instanceId === instanceId)?.countdown?.rule).toBe('job-done')
      manual.advance(COUNTDOWN_MS)
      await until('the instance stopping', async () => {
        const status = await statusOf(sandbox, instanceId)
        return status === 'Stopping' || status === 'Stopped' ? status : undefined
      })
      await until('the stop told', () => sandbox.platform.notifications.find((notification) => notification.kind === 'auto-stop'))
      expect(sandbox.platform.notifications.find((notification) => notification.kind === 'auto-stop')).toMatchObject({
        title: `Cloud Tray stopped «${name}»`,
        body: expect.stringContaining('because its job «sleep 3; exit 7» failed with status 7 and you asked for it to stop then')
      })
    })

    it('reports a job that ended while the app was stopped, and still offers the stop', async () => {
      const dataDir = await rig.freshFolder()
      const first = await start('job-offline', dataDir)
      const { instanceId } = first.sandbox
      await trustHostKey(first.sandbox, first.view, instanceId)
      const job = await first.sandbox.call('jobs.run', { instanceId, command: 'sleep 3; exit 7', folder: '~', stopWhenDone: true })
      await rig.quit(first.sandbox)

      // While the app is closed the job ends on the instance: its wrapper writes the status file.
      const statusFile = join(dataDir, 'sandbox', 'emulator-reach', 'homes', instanceId, '.cloudtray', 'jobs', job.jobId, 'status')
      await until('the job to end on the instance', () => existsSync(statusFile))
      expect(jobNoticeCount(first.sandbox)).toBe(0)

      const second = await start(undefined, dataDir)
      // The instance's SSH port may still be binding: the jobs' next look is on the test's clock.
      const notice = await until('the job’s notification after the restart', () => {
        const found = jobNotice(second.sandbox)
        if (!found) second.manual.advance(JOB_RETRY_MS / 10)
        return found
      })
      expect(notice.title).toBe('Job failed with status 7: «sleep 3; exit 7»')
      expect(notice.body).toMatch(/^On «job-offline\S*» after 3 s\. Cloud Tray stops «job-offline\S*» in 5 min/)
      await until('the countdown', () => second.sandbox.platform.notifications.find((notification) => notification.kind === 'countdown'))
      second.manual.advance(COUNTDOWN_MS)
      await until('the instance stopping', async () => {
        const status = await statusOf(second.sandbox, instanceId)
        return status === 'Stopping' || status === 'Stopped' ? status : undefined
      })
    })
  }
)

function jobNoticeCount(sandbox: SandboxCore): number {
  return sandbox.platform.notifications.filter((notification) => notification.kind === 'job').length
}
