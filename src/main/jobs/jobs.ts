/**
 * Jobs: "Run a job…" on an instance. A job runs in a tmux session of its own on the instance
 * (`cloudtray-job-<id>`, on our own tmux server) under our fixed wrapper
 * (ssh/sessions/remote-scripts.ts), which records its start, end and exit status in
 * ~/.cloudtray/jobs/<id>/. The command line reaches the instance only as an argument; it is never
 * typed into a prompt.
 *
 * While the app runs and the instance is Running, each job of the signed-in account is watched
 * with one `exec` that waits on the instance until the wrapper says the job ended (`tmux
 * wait-for`), so its end is known at once; after a restart, or a dropped connection, the record
 * on the instance is read again, so an end the app did not see is still told. The end is told
 * once: a notification (finished / failed with status N, with Open), and, when the user asked at
 * the start, the instance's stop through the cost guard's countdown (Keep running holds it).
 */
import type { Instance } from '../../shared/api'
import type { Clock, TimerHandle } from '../../shared/clock'
import type { AppNotification, InstancesSnapshot, NavigateTarget, NotificationKind } from '../../shared/contract'
import type { JobView, RunJobInput } from '../../shared/contract-jobs'
import { isRunning } from '../../shared/instance-rules'
import { AppError } from '../app-error'
import type { EventFeed, EventSink } from '../core-types'
import type { ExecOptions, ExecResult } from '../ssh/links/exec'
import { jobStartCommand, jobStatusCommand, type TmuxProbe } from '../ssh/sessions/remote-scripts'
import { jobSessionName, newJobId } from '../ssh/sessions/session-names'
import { jobEndedNotice, jobStopReason } from './job-notices'
import { parseJobReports, stateOf, type JobReport } from './job-status'
import type { JobRecord, JobStore } from './job-store'

/** How long one waiting exec lasts before it is asked again (it ends at once when the job does). */
export const JOB_WAIT_MS = 10 * 60_000
/** After a failed look (not reachable now), the next one. */
export const JOB_RETRY_MS = 30_000

export interface JobsOptions {
  clock: Clock
  store: JobStore
  emit: EventSink
  /** The hub: jobs follow `instances` (a Running instance is watched, a gone one's jobs are lost) and `session`. */
  events: EventFeed
  /** The instance's shared SSH link: `exec` never asks the user anything. */
  exec(instanceId: string, command: string, options?: ExecOptions): Promise<ExecResult>
  /** Whether the instance has a tmux we can use (asked once per link; writes our wrapper there). */
  probe(instanceId: string): Promise<TmuxProbe>
  /** Ends the job's session (remove). */
  endSession(instanceId: string, name: string): Promise<void>
  account: { accountKey(): string | undefined }
  watcher: { find(instanceId: string): Instance | undefined; snapshot(): InstancesSnapshot }
  notify: { deliver(notification: AppNotification): void; id(kind: NotificationKind, instanceId?: string): string }
  /** The cost guard's countdown before a stop; answers its minutes, or undefined when it could not start one. */
  stopAfterJob(instanceId: string, reason: string): number | undefined
  /** Shows the window at a place (the notification's Open). */
  navigate(target: NavigateTarget): void
  log?: { warn(message: string, data?: unknown): void }
}

export class Jobs {
  /** Jobs being watched now, by id. */
  private readonly watching = new Map<string, { timer?: TimerHandle; waiting: boolean }>()
  private disposed = false

  constructor(private readonly options: JobsOptions) {
    options.events.on('instances', () => this.watchAll())
    options.events.on('session', () => {
      this.watchAll()
      this.publish()
    })
  }

  load(): Promise<void> {
    return this.options.store.load()
  }

  /** The account's jobs, newest first. */
  list(instanceId?: string): JobView[] {
    const account = this.options.account.accountKey()
    return this.options.store
      .all()
      .filter((record) => record.account === account && (instanceId === undefined || record.instanceId === instanceId))
      .map(view)
      .sort((a, b) => b.startedAt - a.startedAt)
  }

  async run(input: RunJobInput): Promise<JobView> {
    const account = this.options.account.accountKey()
    if (!account) throw new AppError('no-session', 'Sign in to run a job.')
    const instance = this.options.watcher.find(input.instanceId)
    if (!instance || !isRunning(instance)) throw new AppError('not-allowed', 'The instance is not Running: start it, then run the job.')
    const command = input.command.trim()
    if (command === '') throw new AppError('bad-input', 'Type the command line to run.', { field: 'command' })
    const probe = await this.options.probe(input.instanceId).catch((error: unknown) => {
      throw new AppError('ssh', `Cloud Tray could not reach the instance: ${(error as Error).message}`)
    })
    if (probe.kind !== 'tmux') {
      throw new AppError(
        'not-allowed',
        probe.kind === 'none'
          ? 'A job needs tmux on the instance to keep running without Cloud Tray: install it with `apt-get install tmux`, then run the job.'
          : `A job needs tmux 3.0 or newer on the instance (it has ${probe.version}).`
      )
    }
    const jobId = newJobId()
    const folder = input.folder.trim() === '' ? '~' : input.folder.trim()
    const started = await this.options.exec(input.instanceId, jobStartCommand(jobId, folder, command), { timeoutMs: 20_000 })
    if (started.exitCode !== 0) {
      const why = started.stderr
        .replace(/[\x00-\x1f\x7f]/g, ' ')
        .trim()
        .slice(0, 300)
      throw new AppError('not-allowed', `The instance did not start the job${why ? `: ${why}` : ''}.`)
    }
    const record: JobRecord = {
      jobId,
      account,
      instanceId: input.instanceId,
      instanceName: instance.instanceSpecInfo.name,
      command,
      folder,
      stopWhenDone: input.stopWhenDone,
      state: 'running',
      startedAt: this.options.clock.now(),
      lastLines: [],
      sessionAlive: true,
      reported: false
    }
    await this.options.store.put(record)
    this.publish()
    this.watch(jobId)
    return view(record)
  }

  /** Reads the instance's record of its jobs again (the list's elapsed time, status and last lines). */
  async refresh(instanceId: string): Promise<JobView[]> {
    const jobs = this.list(instanceId)
    if (jobs.length === 0) return []
    const instance = this.options.watcher.find(instanceId)
    if (!instance || !isRunning(instance))
      return jobs.map((job) => ({ ...job, problem: 'The instance is not Running, so this is how Cloud Tray last saw it.' }))
    let reports: Map<string, JobReport>
    try {
      const result = await this.options.exec(instanceId, jobStatusCommand(jobs.map((job) => job.jobId)), { timeoutMs: 15_000 })
      reports = parseJobReports(result.stdout)
    } catch (error) {
      return jobs.map((job) => ({ ...job, problem: `Could not ask the instance now: ${(error as Error).message}` }))
    }
    for (const job of jobs) {
      const report = reports.get(job.jobId)
      if (report) await this.apply(job.jobId, report)
    }
    return this.list(instanceId)
  }

  /** The notification's "Open": the window shows the job's terminal. */
  open(jobId: string): void {
    const record = this.mine(jobId)
    this.options.navigate({ view: 'terminal', instanceId: record.instanceId, attach: { socket: 'ours', name: jobSessionName(jobId) } })
  }

  /** Forgets an ended job; its session on the instance (kept for its output) is ended too. */
  async remove(jobId: string): Promise<void> {
    const record = this.mine(jobId)
    if (record.state === 'running') throw new AppError('not-allowed', 'The job is still running: end it in its terminal first.')
    const instance = this.options.watcher.find(record.instanceId)
    if (record.sessionAlive && instance && isRunning(instance)) await this.options.endSession(record.instanceId, jobSessionName(jobId))
    await this.options.store.remove(jobId)
    this.publish()
  }

  flushed(): Promise<void> {
    return this.options.store.flushed()
  }

  dispose(): void {
    this.disposed = true
    for (const entry of this.watching.values()) this.options.clock.clearTimeout(entry.timer)
    this.watching.clear()
  }

  // ------------------------------------------------------------------ internals

  private mine(jobId: string): JobRecord {
    const record = this.options.store.get(jobId)
    if (!record || record.account !== this.options.account.accountKey()) throw new AppError('not-allowed', 'That job is not in your list.')
    return record
  }

  private publish(): void {
    this.options.emit('jobs', this.list())
  }

  /** Every running job of the account whose instance runs is watched; a job whose instance is gone is lost. */
  private watchAll(): void {
    if (this.disposed) return
    const account = this.options.account.accountKey()
    const snapshot = this.options.watcher.snapshot()
    for (const record of this.options.store.all()) {
      if (record.account !== account || record.state !== 'running') continue
      const instance = this.options.watcher.find(record.instanceId)
      if (!instance && snapshot.fetchedAt !== null) {
        void this.apply(record.jobId, { jobId: record.jobId, missing: true, sessionAlive: false, lastLines: record.lastLines })
        continue
      }
      if (instance && isRunning(instance)) this.watch(record.jobId)
    }
  }

  /** One look (waiting on the instance until the job ends), then the next, until the job has ended or cannot be watched now. */
  private watch(jobId: string): void {
    if (this.disposed || this.watching.has(jobId)) return
    const entry: { timer?: TimerHandle; waiting: boolean } = { waiting: true }
    this.watching.set(jobId, entry)
    void this.look(jobId, entry)
  }

  private async look(jobId: string, entry: { timer?: TimerHandle; waiting: boolean }): Promise<void> {
    const record = this.options.store.get(jobId)
    const instance = record ? this.options.watcher.find(record.instanceId) : undefined
    if (
      this.disposed ||
      !record ||
      record.state !== 'running' ||
      record.account !== this.options.account.accountKey() ||
      !instance ||
      !isRunning(instance)
    ) {
      // Not now: the instance's next Running snapshot (or the next sign-in) starts it again.
      this.watching.delete(jobId)
      return
    }
    // Still running after a wait that returned: look again in a second, never in a tight loop.
    let again = 1_000
    try {
      const result = await this.options.exec(record.instanceId, jobStatusCommand([jobId], true), { timeoutMs: JOB_WAIT_MS })
      const report = parseJobReports(result.stdout).get(jobId)
      if (report) await this.apply(jobId, report)
    } catch (error) {
      // A wait that timed out is asked again at once; anything else (unreachable, reconnecting) in a while.
      again = (error as { reason?: string }).reason === 'timeout' ? 0 : JOB_RETRY_MS
    }
    if (this.disposed || this.watching.get(jobId) !== entry) return
    entry.timer = this.options.clock.setTimeout(() => void this.look(jobId, entry), again)
  }

  /** What the instance said about a job; its end is told once. */
  private async apply(jobId: string, report: JobReport): Promise<void> {
    const record = this.options.store.get(jobId)
    if (!record) return
    const state = stateOf(report)
    const next: JobRecord = {
      ...record,
      state: record.state === 'running' ? state : record.state,
      ...(report.exitStatus !== undefined ? { exitStatus: report.exitStatus } : {}),
      ...(report.startedAt !== undefined ? { startedAt: report.startedAt } : {}),
      ...(report.endedAt !== undefined ? { endedAt: report.endedAt } : {}),
      lastLines: report.lastLines.length > 0 || report.missing ? report.lastLines : record.lastLines,
      sessionAlive: report.sessionAlive
    }
    if (next.state !== 'running' && next.endedAt === undefined) next.endedAt = this.options.clock.now()
    const ended = next.state !== 'running' && !next.reported
    if (ended) next.reported = true
    if (JSON.stringify(next) === JSON.stringify(record)) return
    await this.options.store.put(next)
    if (ended) this.tell(next)
    this.publish()
  }

  private tell(record: JobRecord): void {
    const job = view(record)
    const minutes = record.stopWhenDone ? this.options.stopAfterJob(record.instanceId, jobStopReason(job)) : undefined
    this.options.notify.deliver(jobEndedNotice(this.options.notify.id, job, minutes))
    if (this.watching.has(record.jobId)) {
      this.options.clock.clearTimeout(this.watching.get(record.jobId)?.timer)
      this.watching.delete(record.jobId)
    }
  }
}

function view(record: JobRecord): JobView {
  const { account: _account, reported: _reported, ...job } = record
  return job
}
