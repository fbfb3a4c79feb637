/**
 * What the create form offers, per profile: the instance-type catalog (catalog-cache.ts: answered
 * at once from memory and disk, read in the background when stale) and the images (the user's
 * image book, image-book.ts, then the Sandbox's own images on the Sandbox profile). A read that
 * lands for the session's profile goes out as the `catalog` event; commands/catalog.ts answers
 * the form's questions from here.
 */
import type { InstanceCatalog } from '../../shared/catalog'
import type { Clock } from '../../shared/clock'
import type { CatalogView, ErrorInfo, KnownImage, Profile, SessionState } from '../../shared/contract'
import type { EventSink } from '../core-types'
import { CatalogCache } from './catalog-cache'
import { ImageBookStore, imageUsed } from './image-book'

export interface CatalogOptions {
  /** catalog-cache.json and images.json live here. */
  dataDir: string
  clock: Pick<Clock, 'now'>
  /** The account: whose catalog, read from which cloud, and the Sandbox's images. */
  account: {
    currentProfile(): Profile
    state(): SessionState
    cloud(): { catalog(): Promise<InstanceCatalog> }
    sandboxImages(profileId: string): { imageId: string; name: string }[]
  }
  toErrorInfo(error: unknown): ErrorInfo
  /** The hub: `catalog` when the session's profile's catalog changed. */
  emit: EventSink
}

export class Catalog {
  readonly cache: CatalogCache
  readonly book: ImageBookStore

  constructor(private readonly options: CatalogOptions) {
    const { dataDir, clock, account, toErrorInfo, emit } = options
    this.book = new ImageBookStore(dataDir)
    this.cache = new CatalogCache({
      dataDir,
      clock,
      fetch: () => account.cloud().catalog(),
      toErrorInfo,
      changed: (profileId) => {
        if (profileId === this.profileId()) emit('catalog', this.view(profileId))
      }
    })
  }

  /** The session's profile (the selected one while signed out). */
  profileId(): string {
    return this.options.account.currentProfile().id
  }

  signedIn(): boolean {
    return this.options.account.state().status === 'signed-in'
  }

  /** The view of a profile: its cached catalog and its images, the user's first. */
  view(profileId: string): CatalogView {
    const builtIn = this.options.account.sandboxImages(profileId)
    const nameOf = (imageId: string): string | undefined => builtIn.find((image) => image.imageId === imageId)?.name
    const mine: KnownImage[] = this.book.get(profileId).map((entry) => ({
      imageId: entry.imageId,
      label: entry.label || nameOf(entry.imageId) || entry.imageId,
      source: 'mine',
      ...(entry.lastUsedAt !== undefined ? { lastUsedAt: entry.lastUsedAt } : {})
    }))
    const sandbox: KnownImage[] = builtIn
      .filter((image) => !mine.some((known) => known.imageId === image.imageId))
      .map((image) => ({ imageId: image.imageId, label: image.name || image.imageId, source: 'sandbox' }))
    return { profileId, ...this.cache.get(profileId), images: [...mine, ...sandbox] }
  }

  /** A session began (account.listen): the form opens with what is cached; a fresh read follows in the background. */
  started(): void {
    const profileId = this.profileId()
    if (this.cache.stale(profileId)) void this.cache.refresh(profileId)
  }

  /** The session's profile's catalog, read again first when older than `maxAgeMs` (a failed read answers what is cached). */
  async current(maxAgeMs: number): Promise<InstanceCatalog | null> {
    const profileId = this.profileId()
    const { fetchedAt } = this.cache.get(profileId)
    if (this.signedIn() && (fetchedAt === null || this.options.clock.now() - fetchedAt >= maxAgeMs)) await this.cache.refresh(profileId)
    return this.cache.get(profileId).catalog
  }

  /** A read now for the session's profile (shared with one on its way); rejects with why it failed. */
  read(): Promise<InstanceCatalog> {
    return this.cache.fetch(this.profileId())
  }

  /** The images the form offers on the session's profile. */
  images(): KnownImage[] {
    return this.view(this.profileId()).images
  }

  /** An instance was launched from `imageId`: it goes first in the form's list. */
  imageUsed(imageId: string): Promise<void> {
    return this.book.change((book) => imageUsed(book, this.profileId(), imageId, this.options.clock.now()))
  }

  /** At start: the image book and the cached catalogs from disk. */
  async load(): Promise<void> {
    await Promise.all([this.book.load(), this.cache.load()])
  }

  /** Quitting: what is being written reaches the disk. */
  async close(): Promise<void> {
    await Promise.all([this.book.flushed(), this.cache.close()])
  }
}
