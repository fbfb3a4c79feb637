/**
 * Remembered tunnels (`<dataDir>/tunnels.json`): per profile and instance, the port inside and
 * the local port the user had, so they come back when the instance runs again. Read lazily on
 * first use, written atomically one write after another; a damaged file or entry is dropped
 * (the tunnel is a convenience the user can make again), one bad entry never the rest. A write
 * the disk refuses keeps them in memory and is told to `problems` (util/save-problems.ts).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../../../shared/node/atomic-write'
import type { SaveProblems } from '../../util/save-problems'

const RememberedSchema = z.object({
  tunnelId: z.string().min(1).max(100),
  profileId: z.string().min(1).max(200),
  instanceId: z.string().min(1).max(200),
  remotePort: z.number().int().min(1).max(65_535),
  localPort: z.number().int().min(1).max(65_535)
})

export type RememberedTunnel = z.infer<typeof RememberedSchema>

export class TunnelStore {
  private entries: RememberedTunnel[] | undefined
  private lastWrite: Promise<void> = Promise.resolve()
  private readonly path: string

  constructor(
    dataDir: string,
    private readonly problems: SaveProblems
  ) {
    this.path = join(dataDir, 'tunnels.json')
  }

  async all(): Promise<RememberedTunnel[]> {
    this.entries ??= await this.read()
    return [...this.entries]
  }

  async remember(entry: RememberedTunnel): Promise<void> {
    const entries = (await this.all()).filter((other) => other.tunnelId !== entry.tunnelId)
    await this.save([...entries, entry])
  }

  async forget(tunnelIds: readonly string[]): Promise<void> {
    const entries = await this.all()
    const kept = entries.filter((entry) => !tunnelIds.includes(entry.tunnelId))
    if (kept.length !== entries.length) await this.save(kept)
  }

  /** Resolves once the last write has finished. */
  flushed(): Promise<void> {
    return this.lastWrite
  }

  private async read(): Promise<RememberedTunnel[]> {
    let parsed: unknown
    try {
      parsed = JSON.parse(await readFile(this.path, 'utf8'))
    } catch {
      return []
    }
    const list = (parsed as { tunnels?: unknown } | null)?.tunnels
    if (!Array.isArray(list)) return []
    return list.flatMap((item) => {
      const entry = RememberedSchema.safeParse(item)
      return entry.success ? [entry.data] : []
    })
  }

  private async save(entries: RememberedTunnel[]): Promise<void> {
    this.entries = entries
    const text = JSON.stringify({ tunnels: entries }, null, 2) + '\n'
    this.lastWrite = this.lastWrite.then(async () => {
      try {
        await writeFileAtomic(this.path, text)
        this.problems.saved(this.path)
      } catch (error) {
        this.problems.failed(this.path, 'your remembered tunnels', error)
      }
    })
    await this.lastWrite
  }
}
