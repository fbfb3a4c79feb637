/**
 * Jobs (see contract.ts for the rules every command follows): "Run a job…" on an instance runs a
 * command line in a tmux session of its own, under a small fixed wrapper of Cloud Tray's that
 * records on the instance when it started and ended and its exit status. So the app learns how
 * a job ended even when it was closed or offline at the time, tells it as a notification, and,
 * when asked at the start, stops the instance through the cost guard's countdown.
 */

export type JobState =
  /** Running on the instance (or not yet confirmed ended). */
  | 'running'
  /** Ended with exit status 0. */
  | 'finished'
  /** Ended with another status (`exitStatus`). */
  | 'failed'
  /** Its session ended without the wrapper recording an outcome (killed, or the instance restarted). */
  | 'lost'

export interface JobView {
  jobId: string
  instanceId: string
  /** The instance's name when the job was started. */
  instanceName: string
  /** The command line as the user typed it. */
  command: string
  /** The working folder as the user typed it (`~` is the home folder). */
  folder: string
  /** Stop the instance when the job ends (through the cost guard's countdown). */
  stopWhenDone: boolean
  state: JobState
  exitStatus?: number
  /** Unix ms: from the instance's record when known, else when the app asked. */
  startedAt: number
  endedAt?: number
  /** The last lines of its output, as last read from the instance. */
  lastLines: string[]
  /** Its tmux session is still on the instance (its terminal can be opened). */
  sessionAlive: boolean
  /** Why what is shown may be out of date (the instance could not be asked now), in the user's words. */
  problem?: string
}

export interface RunJobInput {
  instanceId: string
  /** One command line, run by the user's shell on the instance. */
  command: string
  /** Where it runs; empty or `~`: the home folder. */
  folder: string
  stopWhenDone: boolean
}

/** Bounds of what a person types into "Run a job…". */
export const MAX_JOB_COMMAND = 4000
export const MAX_JOB_FOLDER = 1000

export interface JobsCommands {
  /** Starts a job; answers it as it runs. */
  'jobs.run': { input: RunJobInput; result: JobView }
  /** The account's jobs on an instance, read again from the instance (elapsed time, status, last lines). */
  'jobs.list': { input: { instanceId: string }; result: JobView[] }
  /** Opens the job's terminal in the window (the notification's "Open"). */
  'jobs.open': { input: { jobId: string }; result: void }
  /** Forgets an ended job (its session on the instance is ended too). */
  'jobs.remove': { input: { jobId: string }; result: void }
}

export interface JobsEvents {
  /** The account's jobs, whenever one starts, ends or is removed. */
  jobs: JobView[]
}
