/**
 * The launches the create form suggests from (`<dataDir>/recent-launches.json`): read once at
 * start, added to on each create, written atomically one write after another, so stop() can wait
 * for the last and nothing writes after shutdown.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../../shared/node/atomic-write'
import { addRecentLaunch, type RecentLaunch } from './suggestions'

export class RecentLaunchesStore {
  private launches: RecentLaunch[] = []
  private lastWrite: Promise<void> = Promise.resolve()
  private readonly path: string

  constructor(dataDir: string) {
    this.path = join(dataDir, 'recent-launches.json')
  }

  get(): RecentLaunch[] {
    return this.launches
  }

  /** Reads the file; a missing or damaged one is an empty list (suggestions are a convenience). */
  async load(): Promise<void> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.path, 'utf8'))
      this.launches = Array.isArray(parsed) ? parsed.filter(isRecentLaunch) : []
    } catch {
      this.launches = []
    }
  }

  async add(launch: RecentLaunch): Promise<void> {
    this.launches = addRecentLaunch(this.launches, launch)
    const snapshot = JSON.stringify(this.launches) + '\n'
    this.lastWrite = this.lastWrite.then(() => writeFileAtomic(this.path, snapshot)).catch(() => undefined)
    await this.lastWrite
  }

  /** Resolves once the last write has finished. */
  flushed(): Promise<void> {
    return this.lastWrite
  }
}

function isRecentLaunch(value: unknown): value is RecentLaunch {
  if (typeof value !== 'object' || value === null) return false
  const launch = value as Partial<Record<keyof RecentLaunch, unknown>>
  return (
    typeof launch.imageId === 'string' &&
    typeof launch.instanceTypeId === 'string' &&
    typeof launch.region === 'string' &&
    typeof launch.at === 'number'
  )
}
