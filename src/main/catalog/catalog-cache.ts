/**
 * The instance-type catalog per profile, cached so the create form never waits for it: kept in
 * memory and in `<dataDir>/catalog-cache.json` (nothing secret in it), answered at once, and
 * read again in the background when a session starts, when it is older than MAX_AGE_MS, or on
 * demand. Each change is told to the windows (`catalog` event, through `changed`).
 *
 * Prices for the rest of main (the cost guard) come from here: `priceOf` on the session's
 * profile, through src/shared/catalog.ts's one lookup.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { priceOf, readCatalog, type InstanceCatalog } from '../../shared/catalog'
import type { Clock } from '../../shared/clock'
import type { ErrorInfo } from '../../shared/contract'
import { writeFileAtomic } from '../../shared/node/atomic-write'

/** Stock and prices move; a form opened after this long gets a fresh read in the background. */
export const MAX_AGE_MS = 10 * 60_000

export interface CachedCatalog {
  catalog: InstanceCatalog | null
  fetchedAt: number | null
  refreshing: boolean
  error?: ErrorInfo
}

export interface CatalogCacheOptions {
  dataDir: string
  clock: Pick<Clock, 'now'>
  /** Reads the catalog from the cloud of `profileId` (the session's). */
  fetch(profileId: string): Promise<InstanceCatalog>
  toErrorInfo(error: unknown): ErrorInfo
  /** The cache of a profile changed (read, refreshing, failed). */
  changed(profileId: string): void
}

/** On disk: what was read, as read (offers re-read through readCatalog, so a damaged entry is skipped). */
const FileSchema = z.record(z.string(), z.object({ offers: z.array(z.unknown()), fetchedAt: z.number() }))

export class CatalogCache {
  private readonly entries = new Map<string, { catalog: InstanceCatalog; fetchedAt: number }>()
  private readonly reading = new Map<string, Promise<InstanceCatalog>>()
  private readonly errors = new Map<string, ErrorInfo>()
  private lastWrite: Promise<void> = Promise.resolve()
  private closed = false
  private readonly path: string

  constructor(private readonly options: CatalogCacheOptions) {
    this.path = join(options.dataDir, 'catalog-cache.json')
  }

  /** Reads the cache file; a missing or damaged one is an empty cache. */
  async load(): Promise<void> {
    try {
      const parsed = FileSchema.safeParse(JSON.parse(await readFile(this.path, 'utf8')))
      if (!parsed.success) return
      for (const [profileId, entry] of Object.entries(parsed.data)) {
        this.entries.set(profileId, { catalog: readCatalog(entry.offers), fetchedAt: entry.fetchedAt })
      }
    } catch {
      // No cache yet, or an unreadable one: the first read fills it.
    }
  }

  get(profileId: string): CachedCatalog {
    const entry = this.entries.get(profileId)
    const error = this.errors.get(profileId)
    return {
      catalog: entry?.catalog ?? null,
      fetchedAt: entry?.fetchedAt ?? null,
      refreshing: this.reading.has(profileId),
      ...(error ? { error } : {})
    }
  }

  /** True when the profile's catalog was never read or is older than MAX_AGE_MS. */
  stale(profileId: string): boolean {
    const entry = this.entries.get(profileId)
    return !entry || this.options.clock.now() - entry.fetchedAt >= MAX_AGE_MS
  }

  /** Reads the profile's catalog again (one read at a time per profile); never rejects. */
  refresh(profileId: string): Promise<void> {
    return this.fetch(profileId).then(
      () => undefined,
      () => undefined
    )
  }

  /**
   * Reads the profile's catalog again and answers it, or rejects with why the read failed; a
   * read already on its way is shared (the availability watch and the form ask the same read).
   */
  fetch(profileId: string): Promise<InstanceCatalog> {
    let reading = this.reading.get(profileId)
    if (reading) return reading
    reading = this.read(profileId).finally(() => {
      this.reading.delete(profileId)
      this.options.changed(profileId)
    })
    this.reading.set(profileId, reading)
    this.options.changed(profileId)
    return reading
  }

  /** The unit price of a type in a charge mode (and region) on the profile's catalog. */
  priceOf(profileId: string, instanceTypeId: string, chargeMode: string, regionId?: string): number | undefined {
    return priceOf(this.entries.get(profileId)?.catalog, instanceTypeId, chargeMode, regionId)
  }

  flushed(): Promise<void> {
    return this.lastWrite
  }

  /**
   * The app is stopping: a read still on its way (one a sign-in started in the background) is
   * dropped when it lands rather than written into a data folder that may be going away.
   * Resolves once the last write has finished.
   */
  close(): Promise<void> {
    this.closed = true
    return this.lastWrite
  }

  private async read(profileId: string): Promise<InstanceCatalog> {
    try {
      const catalog = await this.options.fetch(profileId)
      if (this.closed) return catalog
      this.entries.set(profileId, { catalog, fetchedAt: this.options.clock.now() })
      this.errors.delete(profileId)
      await this.write()
      return catalog
    } catch (error) {
      this.errors.set(profileId, this.options.toErrorInfo(error))
      throw error
    }
  }

  private write(): Promise<void> {
    const file = Object.fromEntries(
      [...this.entries].map(([id, entry]) => [id, { offers: feedOf(entry.catalog), fetchedAt: entry.fetchedAt }])
    )
    const text = JSON.stringify(file) + '\n'
    this.lastWrite = this.lastWrite.then(() => writeFileAtomic(this.path, text)).catch(() => undefined)
    return this.lastWrite
  }
}

/**
 * The cache stores offers in the feed's own nested shape, so reading it back goes through the
 * same tolerant reader as an answer from the cloud.
 */
function feedOf(catalog: InstanceCatalog): unknown[] {
  return catalog.offers.map((offer) => ({
    gpuName: offer.gpuName,
    isSpotInstance: offer.spot,
    regionInfos: [
      {
        regionId: offer.regionId,
        regionName: offer.regionName,
        instanceTypeInfos: [
          {
            instanceTypeId: offer.instanceTypeId,
            gpuNum: offer.gpuNum,
            stockStatus: offer.stock === 'in-stock' ? 'InStock' : offer.stock === 'out-of-stock' ? 'OutOfStock' : 'Unknown',
            price: Object.entries(offer.prices).map(([chargeMode, price]) => ({ chargeMode, price }))
          }
        ]
      }
    ]
  }))
}
