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

/** The guard's records: one RuleState per account and instance (util/scoped-store.ts keeps and writes them). */
export class GuardStore extends ScopedStore<RuleState> {
  constructor(dataDir: string, now: () => number, onWriteError: (error: unknown) => void = () => {}) {
    super({
      dataDir,
      file: GUARD_FILE,
      key: 'accounts',
      record: RuleStateSchema as unknown as z.ZodType<RuleState, unknown>,
      what: 'its auto-stop rules',
      setAside: (aside) =>
        `Cloud Tray could not read its auto-stop rules, so instances have none until you set them again. The old file was kept as ${aside}.`,
      now,
      onWriteError
    })
  }
}

/** The app's store: `cost-guard.json` in the data folder; a failed write is logged and the rules stay in memory. */
export function guardStoreIn(dataDir: string, clock: Pick<Clock, 'now'>, log?: Pick<CoreLog, 'warn'>): GuardStore {
  return new GuardStore(
    dataDir,
    () => clock.now(),
    (error) => log?.warn('cost guard: could not save its rules', { error: String(error) })
  )
}
