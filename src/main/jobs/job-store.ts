/**
 * The jobs this app started, per account, in `<dataDir>/jobs.json` (0600, rewritten atomically):
 * enough to find each job on its instance again after a restart and to tell its end once. Read
 * entry by entry: a bad entry is dropped, the others stay.
 */
import { join } from 'node:path'
import { z } from 'zod'
import type { JobView } from '../../shared/contract-jobs'
import { MAX_JOB_COMMAND, MAX_JOB_FOLDER } from '../../shared/contract-jobs'
import { writeFileAtomic } from '../../shared/node/atomic-write'
import { JOB_ID } from '../ssh/sessions/session-names'
import { readJsonList } from '../util/read-json-list'
import type { SaveProblems } from '../util/save-problems'

export interface JobRecord extends JobView {
  /** `profileId/username`: a job is shown and watched only for its account. */
  account: string
  /** Its end was told (the notification, and the stop asked for): never twice. */
  reported: boolean
}

/** The most jobs kept; the oldest ended ones go first. */
export const MAX_JOBS = 200

const RecordSchema = z.object({
  jobId: z.string().regex(JOB_ID),
  account: z.string().min(1).max(400),
  instanceId: z.string().min(1).max(200),
  instanceName: z.string().max(200),
  command: z.string().min(1).max(MAX_JOB_COMMAND),
  folder: z.string().max(MAX_JOB_FOLDER),
  stopWhenDone: z.boolean(),
  state: z.enum(['running', 'finished', 'failed', 'lost']),
  exitStatus: z.number().int().min(0).max(255).optional(),
  startedAt: z.number().finite(),
  endedAt: z.number().finite().optional(),
  lastLines: z.array(z.string().max(1000)).max(50),
  sessionAlive: z.boolean(),
  reported: z.boolean()
})

export class JobStore {
  private records: JobRecord[] = []
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly dataDir: string,
    /** A refused write keeps the jobs in memory and is told here (a warning naming the file). */
    private readonly problems: SaveProblems
  ) {}

  async load(): Promise<void> {
    const file = await readJsonList(join(this.dataDir, 'jobs.json'), 'jobs', RecordSchema)
    if (!file) return
    this.records = file.items.map((entry) => {
      const { problem: _problem, ...record } = entry as JobRecord
      return record
    })
  }

  all(): readonly JobRecord[] {
    return this.records
  }

  get(jobId: string): JobRecord | undefined {
    return this.records.find((record) => record.jobId === jobId)
  }

  /** Adds or replaces a job, then writes the file. */
  put(record: JobRecord): Promise<void> {
    const others = this.records.filter((each) => each.jobId !== record.jobId)
    this.records = trim([...others, record])
    return this.write()
  }

  remove(jobId: string): Promise<void> {
    this.records = this.records.filter((record) => record.jobId !== jobId)
    return this.write()
  }

  flushed(): Promise<void> {
    return this.writing
  }

  private write(): Promise<void> {
    const text = JSON.stringify({ jobs: this.records }, null, 2) + '\n'
    const path = join(this.dataDir, 'jobs.json')
    this.writing = this.writing.then(async () => {
      try {
        await writeFileAtomic(path, text, 0o600)
        this.problems.saved(path)
      } catch (error) {
        this.problems.failed(path, 'your jobs', error)
      }
    })
    return this.writing
  }
}

/** At most MAX_JOBS: running jobs always stay; the oldest ended ones go. */
function trim(records: JobRecord[]): JobRecord[] {
  if (records.length <= MAX_JOBS) return records
  const ended = records.filter((record) => record.state !== 'running').sort((a, b) => a.startedAt - b.startedAt)
  const drop = new Set(ended.slice(0, records.length - MAX_JOBS).map((record) => record.jobId))
  return records.filter((record) => !drop.has(record.jobId))
}
