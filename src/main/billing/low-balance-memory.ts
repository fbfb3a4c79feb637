/**
 * Which accounts have been told their balance is low, for the dip they are in: kept in
 * `<dataDir>/low-balance.json` (account keys only, `profileId/username`), so signing out and in
 * again, or restarting the app, does not tell them again while the balance stays low. An account
 * leaves the list when its balance is back at or above the level, or the level changes.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../shared/node/atomic-write'

const FileSchema = z.object({ warned: z.array(z.string().max(2_000)).max(1_000) })

export class LowBalanceMemory {
  private readonly warned = new Set<string>()
  private readonly path: string
  private saving: Promise<void> = Promise.resolve()

  constructor(
    dataDir: string,
    private readonly onError: (error: unknown) => void = () => {}
  ) {
    this.path = join(dataDir, 'low-balance.json')
  }

  /** Reads the file; a missing or unreadable one is an empty list (at worst, one warning again). */
  async load(): Promise<void> {
    try {
      const parsed = FileSchema.safeParse(JSON.parse(await readFile(this.path, 'utf8')))
      if (parsed.success) for (const key of parsed.data.warned) this.warned.add(key)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.onError(error)
    }
  }

  has(account: string): boolean {
    return this.warned.has(account)
  }

  add(account: string): void {
    if (this.warned.has(account)) return
    this.warned.add(account)
    this.save()
  }

  delete(account: string): void {
    if (this.warned.delete(account)) this.save()
  }

  clear(): void {
    if (this.warned.size === 0) return
    this.warned.clear()
    this.save()
  }

  /** Resolves once what was changed is on disk. */
  flushed(): Promise<void> {
    return this.saving
  }

  private save(): void {
    const text = `${JSON.stringify({ warned: [...this.warned] }, null, 2)}\n`
    this.saving = this.saving.then(() => writeFileAtomic(this.path, text).catch(this.onError))
  }
}
