/**
 * What an instance says about a job (remote-scripts.ts jobStatusCommand), parsed: the wrapper's
 * record (started, ended, exit status), whether its session is still there, and its last lines.
 * The instance's text is untrusted: each field is checked and bounded, and a line that does not
 * fit is dropped.
 */
import type { JobState } from '../../shared/contract-jobs'
import { FIELD, JOB_TAIL_LINES } from '../ssh/sessions/remote-scripts'

export interface JobReport {
  jobId: string
  /** The job's folder is not on the instance (a new machine, or it was removed). */
  missing: boolean
  startedAt?: number
  endedAt?: number
  exitStatus?: number
  sessionAlive: boolean
  lastLines: string[]
}

const MAX_LINE = 400

export function parseJobReports(stdout: string): Map<string, JobReport> {
  const reports = new Map<string, JobReport>()
  for (const line of stdout.split('\n')) {
    const fields = line.split(FIELD)
    const [kind, jobId] = fields
    if (jobId === undefined || !/^[a-z0-9]{6,16}$/.test(jobId)) continue
    if (kind === 'M' && fields.length === 2) {
      reports.set(jobId, { jobId, missing: true, sessionAlive: false, lastLines: [] })
    } else if (kind === 'J' && fields.length === 6) {
      const [, , started, ended, status, session] = fields as string[]
      const seconds = (text: string | undefined): number | undefined =>
        text && /^\d{1,12}$/.test(text.trim()) ? Number(text.trim()) * 1000 : undefined
      const exitStatus = status && /^\d{1,3}$/.test(status.trim()) ? Number(status.trim()) : undefined
      const startedAt = seconds(started)
      const endedAt = seconds(ended)
      reports.set(jobId, {
        jobId,
        missing: false,
        ...(startedAt !== undefined ? { startedAt } : {}),
        ...(endedAt !== undefined ? { endedAt } : {}),
        ...(exitStatus !== undefined ? { exitStatus } : {}),
        sessionAlive: session === 'yes',
        lastLines: []
      })
    } else if (kind === 'T' && fields.length >= 3) {
      const report = reports.get(jobId)
      if (report && report.lastLines.length < JOB_TAIL_LINES) {
        report.lastLines.push(
          fields
            .slice(2)
            .join(' ')
            .replace(/[\x00-\x1f\x7f-\x9f]/g, ' ')
            .trimEnd()
            .slice(0, MAX_LINE)
        )
      }
    }
  }
  return reports
}

/** The job's state from its report: ended with a status, still running, or gone without one. */
export function stateOf(report: JobReport): JobState {
  if (report.exitStatus !== undefined) return report.exitStatus === 0 ? 'finished' : 'failed'
  if (report.missing || !report.sessionAlive) return 'lost'
  return 'running'
}
