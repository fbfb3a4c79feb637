/**
 * The cost guard's rules and their progress, per account and instance, in
 * `<dataDir>/cost-guard.json`, so they survive a restart of the app (a countdown found there
 * starts again; rules.ts resumeCountdown). Written atomically after each change, changes made
 * together sharing one write. Read tolerantly: one unreadable instance entry is dropped, not the
 * file; a file that is not JSON at all is set aside and the app says so.
 */
import { z } from 'zod'
import type { Clock } from '../../shared/clock'
import { GuardRulesSchema } from '../../shared/guard-rules'
import type { CoreLog } from '../core-types'
import { ScopedStore } from '../util/scoped-store'
import type { RuleState } from './rules'
import type { SaveProblems } from '../util/save-problems'

const time = z.number().finite()

const CountdownSchema = z.object({
  rule: z.enum(['stop-after', 'stop-at', 'idle']),
  reason: z.string().max(500),
  startedAt: time,
  endsAt: time,
  retry: z.boolean().optional()
})

const RuleStateSchema = z.object({
  rules: GuardRulesSchema,
  nextReminderAt: time.optional(),
  stopAtFrom: time,
  keepRunningUntil: time.optional(),
  countdown: CountdownSchema.optional(),
  planWarnedFor: time.optional(),
  stopAskedAt: time.optional(),
  runSeenAt: time.optional()
})

export const GUARD_FILE = 'cost-guard.json'
/** The stops the guard made, kept apart from the rules: a stopped instance's rules end with its run, its stop's reason does not. */
export const GUARD_STOPS_FILE = 'cost-guard-stops.json'

const GuardStopSchema = z.object({ at: time, reason: z.string().max(500) })
export type GuardStopRecord = z.infer<typeof GuardStopSchema>
/** A stopped instance is listed until the user deletes it; the file never grows past this many per account. */
const STOPS_KEPT = 500

/**
 * The guard's records: one RuleState per account and instance (util/scoped-store.ts keeps and
 * writes them), and beside them in `stops` the stops the guard made, so the details can say the
 * guard stopped an instance (and why) after the cloud has forgotten who asked.
 */
export class GuardStore extends ScopedStore<RuleState> {
  readonly stops: ScopedStore<GuardStopRecord>

  constructor(dataDir: string, now: () => number, onWriteError: (error: unknown) => void = () => {}, problems?: SaveProblems) {
    super({
      dataDir,
      file: GUARD_FILE,
      key: 'accounts',
      record: RuleStateSchema as unknown as z.ZodType<RuleState, unknown>,
      what: 'its auto-stop rules',
      setAside: (aside) =>
        `Cloud Tray could not read its auto-stop rules, so instances have none until you set them again. The old file was kept as ${aside}.`,
      now,
      onWriteError,
      problems
    })
    this.stops = new ScopedStore({
      dataDir,
      file: GUARD_STOPS_FILE,
      record: GuardStopSchema,
      what: 'which instances its cost guard stopped',
      now,
      limit: { perScope: STOPS_KEPT, age: (stop) => stop.at },
      onWriteError,
      problems
    })
  }

  override async load(): Promise<{ warning?: string }> {
    const [rules, stops] = await Promise.all([super.load(), this.stops.load()])
    // The rules' sentence matters more; a lost stops file only loses "stopped by the cost guard" lines.
    return rules.warning !== undefined ? rules : stops
  }

  override async flushed(): Promise<void> {
    await Promise.all([super.flushed(), this.stops.flushed()])
  }
}

/** The app's store: `cost-guard.json` in the data folder; a failed write is logged, told to `problems`, and the rules stay in memory. */
export function guardStoreIn(
  dataDir: string,
  clock: Pick<Clock, 'now'>,
  log: Pick<CoreLog, 'warn'> | undefined,
  problems: SaveProblems
): GuardStore {
  return new GuardStore(
    dataDir,
    () => clock.now(),
    (error) => log?.warn('cost guard: could not save its rules', { error: String(error) }),
    problems
  )
}
