/**
 * The cost guard's rules and their progress, per account and instance, in
 * `<dataDir>/cost-guard.json`, so they survive a restart of the app (a countdown found there
 * starts again; rules.ts resumeCountdown). Written atomically after each change, changes made
 * together sharing one write. Read tolerantly: one unreadable instance entry is dropped, not the
 * file; a file that is not JSON at all is set aside and the app says so.
 */
import { readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import type { Clock } from '../../shared/clock'
import { GuardRulesSchema } from '../../shared/guard-rules'
import { writeFileAtomic } from '../../shared/node/atomic-write'
import type { CoreLog } from '../core-types'
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

const FileSchema = z.object({ version: z.literal(1), accounts: z.record(z.string(), z.record(z.string(), z.unknown())) })

export const GUARD_FILE = 'cost-guard.json'

export class GuardStore {
  private accounts = new Map<string, Map<string, RuleState>>()
  private writing: Promise<void> = Promise.resolve()
  private dirty = false

  constructor(
    private readonly dataDir: string,
    private readonly now: () => number,
    private readonly onWriteError: (error: unknown) => void = () => {}
  ) {}

  get path(): string {
    return join(this.dataDir, GUARD_FILE)
  }

  /** Reads the file; resolves with a sentence for the user when it had to be set aside. */
  async load(): Promise<{ warning?: string }> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw error
    }
    let parsed: z.infer<typeof FileSchema> | undefined
    try {
      const result = FileSchema.safeParse(JSON.parse(text))
      if (result.success) parsed = result.data
    } catch {
      parsed = undefined
    }
    if (!parsed) {
      const aside = `${this.path}.bad-${this.now()}`
      await rename(this.path, aside)
      return {
        warning: `Cloud Tray could not read its auto-stop rules, so instances have none until you set them again. The old file was kept as ${aside}.`
      }
    }
    this.accounts = new Map()
    for (const [scope, instances] of Object.entries(parsed.accounts)) {
      const states = new Map<string, RuleState>()
      for (const [instanceId, value] of Object.entries(instances)) {
        const state = RuleStateSchema.safeParse(value)
        if (state.success) states.set(instanceId, state.data as RuleState)
      }
      this.accounts.set(scope, states)
    }
    return {}
  }

  get(scope: string, instanceId: string): RuleState | undefined {
    return this.accounts.get(scope)?.get(instanceId)
  }

  /** The account's instances with their state. */
  entries(scope: string): [string, RuleState][] {
    return [...(this.accounts.get(scope) ?? new Map<string, RuleState>())]
  }

  set(scope: string, instanceId: string, state: RuleState): void {
    let states = this.accounts.get(scope)
    if (!states) {
      states = new Map()
      this.accounts.set(scope, states)
    }
    states.set(instanceId, state)
    this.changed()
  }

  delete(scope: string, instanceId: string): void {
    const states = this.accounts.get(scope)
    if (!states?.delete(instanceId)) return
    if (states.size === 0) this.accounts.delete(scope)
    this.changed()
  }

  /** Resolves once everything changed so far is on disk (or failed to be written). */
  flushed(): Promise<void> {
    return this.writing
  }

  private changed(): void {
    if (this.dirty) return
    this.dirty = true
    // One write for everything changed in this turn; writes never overlap.
    this.writing = this.writing.then(async () => {
      await Promise.resolve()
      this.dirty = false
      const accounts = Object.fromEntries([...this.accounts].map(([scope, states]) => [scope, Object.fromEntries(states)]))
      try {
        await writeFileAtomic(this.path, JSON.stringify({ version: 1, accounts }, null, 2) + '\n')
      } catch (error) {
        this.onWriteError(error)
      }
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
