/**
 * What a job's end says, as a notification (pure): how it ended, on which instance, after how
 * long, and, when the user asked for it, that the instance stops after the cost guard's
 * countdown. "Open" opens the job's terminal.
 */
import type { AppNotification, NotificationKind } from '../../shared/contract'
import type { JobView } from '../../shared/contract-jobs'
import { elapsedWords } from '../../shared/job-words'

type MakeId = (kind: NotificationKind, instanceId?: string) => string

const quoted = (text: string): string => `«${text}»`

/** A command line as a short label: its first line, at most 60 characters. */
export function commandLabel(command: string): string {
  const first = command.split('\n')[0]!.trim()
  return first.length > 60 ? `${first.slice(0, 59)}…` : first
}

export function jobEndedNotice(id: MakeId, job: JobView, countdownMinutes: number | undefined): AppNotification {
  const how =
    job.state === 'finished'
      ? 'finished'
      : job.state === 'failed'
        ? `failed with status ${job.exitStatus ?? '?'}`
        : 'ended without an exit status (its session was ended, or the instance restarted)'
  const ran = job.endedAt !== undefined && job.endedAt >= job.startedAt ? ` after ${elapsedWords(job.endedAt - job.startedAt)}` : ''
  const stop =
    countdownMinutes !== undefined
      ? ` Cloud Tray stops ${quoted(job.instanceName)} in ${countdownMinutes} min, as you asked: choose Keep running to leave it on.`
      : ''
  return {
    id: id('job', job.instanceId),
    kind: 'job',
    title: `Job ${how}: ${quoted(commandLabel(job.command))}`,
    body: `On ${quoted(job.instanceName)}${ran}.${stop}`,
    instanceId: job.instanceId,
    jobId: job.jobId,
    actions: [{ id: 'open-job', label: 'Open' }]
  }
}

/** Why the cost guard stops the instance (its countdown notice and the stop say "because …"). */
export function jobStopReason(job: JobView): string {
  const how = job.state === 'finished' ? 'finished' : job.state === 'failed' ? `failed with status ${job.exitStatus ?? '?'}` : 'ended'
  return `its job ${quoted(commandLabel(job.command))} ${how} and you asked for it to stop then`
}
