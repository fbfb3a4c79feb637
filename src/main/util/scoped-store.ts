/**
 * Records kept per scope (a profile, or an account `profileId/username`) and id, in one JSON file
 * of the data folder: launch templates, what each instance was launched with, availability
 * watches, relaunch rules, the cost guard's rules and their progress. Nothing secret goes here (the keychain holds the secrets).
 *
 * - Read once at start, tolerantly: one unreadable record (a hand-edited file, an older version)
 *   is dropped, not the file; a file that is not JSON of this shape at all is set aside as
 *   `<file>.bad-<time>` and the caller gets a sentence for the user.
 * - Written atomically (temp file, fsync, rename: src/shared/node/atomic-write.ts), changes made in
 *   one turn sharing one write, writes never overlapping; `flushed()` resolves once what was
 *   changed so far is on disk (Quit waits for it).
 */
import { rename } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../shared/node/atomic-write'
import { readTextIfExists } from './read-text'
import type { SaveProblems } from './save-problems'

/** `{ version: 1, <key>: { <scope>: { <id>: record } } }` */
const fileSchema = (key: string) => z.object({ version: z.literal(1), [key]: z.record(z.string(), z.record(z.string(), z.unknown())) })

export interface ScopedStoreOptions<T> {
  dataDir: string
  /** The file's name in the data folder, e.g. `templates.json`. */
  file: string
  /** One record; what fails it is dropped on reading. */
  record: z.ZodType<T, unknown>
  /** What the file holds, for the sentence when it is set aside: "your launch templates". */
  what: string
  /** The sentence when the file is set aside, where "… could not read <what>, so it starts without them" is not the whole story. */
  setAside?(aside: string): string
  /** The file's top-level key for the scopes (default `scopes`; the cost guard's older file says `accounts`). */
  key?: string
  now(): number
  /** Bounds each scope: beyond this many records, `oldest` goes first. */
  limit?: { perScope: number; age: (record: T) => number }
  onWriteError?(error: unknown): void
  /** Told of each write's outcome, so a refused one reaches the user (util/save-problems.ts). */
  problems?: SaveProblems | undefined
}

export class ScopedStore<T> {
  private byScope = new Map<string, Map<string, T>>()
  private writing: Promise<void> = Promise.resolve()
  private dirty = false
  readonly path: string
  private readonly key: string

  constructor(private readonly options: ScopedStoreOptions<T>) {
    this.path = join(options.dataDir, options.file)
    this.key = options.key ?? 'scopes'
  }

  /** Reads the file; resolves with a sentence for the user when it had to be set aside. */
  async load(): Promise<{ warning?: string }> {
    const text = await readTextIfExists(this.path)
    if (text === null) return {}
    let scopes: Record<string, Record<string, unknown>> | undefined
    try {
      const result = fileSchema(this.key).safeParse(JSON.parse(text))
      if (result.success) scopes = result.data[this.key] as Record<string, Record<string, unknown>>
    } catch {
      scopes = undefined
    }
    if (!scopes) {
      const aside = `${this.path}.bad-${this.options.now()}`
      await rename(this.path, aside)
      const { setAside, what } = this.options
      return {
        warning: setAside?.(aside) ?? `Cloud Tray could not read ${what}, so it starts without them. The old file was kept as ${aside}.`
      }
    }
    this.byScope = new Map()
    for (const [scope, records] of Object.entries(scopes)) {
      const kept = new Map<string, T>()
      for (const [id, value] of Object.entries(records)) {
        const record = this.options.record.safeParse(value)
        if (record.success) kept.set(id, record.data)
      }
      if (kept.size > 0) this.byScope.set(scope, kept)
    }
    return {}
  }

  /** The scopes that hold records. */
  scopes(): string[] {
    return [...this.byScope.keys()]
  }

  get(scope: string, id: string): T | undefined {
    return this.byScope.get(scope)?.get(id)
  }

  /** The scope's records, in the order they were first set. */
  entries(scope: string): [string, T][] {
    return [...(this.byScope.get(scope) ?? [])]
  }

  set(scope: string, id: string, record: T): void {
    let records = this.byScope.get(scope)
    if (!records) this.byScope.set(scope, (records = new Map()))
    records.set(id, record)
    const limit = this.options.limit
    if (limit && records.size > limit.perScope) {
      const oldest = [...records].sort(([, a], [, b]) => limit.age(a) - limit.age(b)).slice(0, records.size - limit.perScope)
      for (const [gone] of oldest) records.delete(gone)
    }
    this.changed()
  }

  delete(scope: string, id: string): void {
    const records = this.byScope.get(scope)
    if (!records?.delete(id)) return
    if (records.size === 0) this.byScope.delete(scope)
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
      const scopes = Object.fromEntries([...this.byScope].map(([scope, records]) => [scope, Object.fromEntries(records)]))
      try {
        await writeFileAtomic(this.path, JSON.stringify({ version: 1, [this.key]: scopes }, null, 2) + '\n')
        this.options.problems?.saved(this.path)
      } catch (error) {
        this.options.onWriteError?.(error)
        this.options.problems?.failed(this.path, this.options.what, error)
      }
    })
  }
}

/** What every store of one part of main shares: the data folder, the clock, where a failed write is told. */
export interface ScopedStoreHome {
  dataDir: string
  clock: { now(): number }
  log?: { warn(message: string, data?: unknown): void } | undefined
  /** Where a refused write is told to the user (the core's warnings). */
  problems: SaveProblems
}

/**
 * The stores of one part of main (the templates, the availability watch): each in `home`'s data
 * folder, on its clock, a failed write logged under `part`'s name and told to `home.problems`.
 */
export function scopedStoresOf(
  part: string,
  home: ScopedStoreHome
): <T>(store: Omit<ScopedStoreOptions<T>, 'dataDir' | 'now' | 'onWriteError' | 'problems'>) => ScopedStore<T> {
  const now = (): number => home.clock.now()
  const onWriteError = (error: unknown): void => home.log?.warn(`${part}: could not save`, { error: String(error) })
  return (store) => new ScopedStore({ ...store, dataDir: home.dataDir, now, onWriteError, problems: home.problems })
}
