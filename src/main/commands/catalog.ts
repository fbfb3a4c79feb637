/**
 * What the create form offers: the cached catalog of the session's profile (catalog/catalog-cache.ts,
 * read in the background when stale, never waited for) and the images (the user's image book,
 * plus the Sandbox's own images on the Sandbox profile), named by the user.
 */
import type { CatalogView, KnownImage } from '../../shared/contract'
import { AppError } from '../app-error'
import type { CachedCatalog } from '../catalog/catalog-cache'
import { imageForgotten, imageNamed, type ImageBook, type ImageEntry } from '../catalog/image-book'
import type { CommandGroup } from './dispatcher'

export interface CatalogServices {
  /** The session's profile (the selected one while signed out). */
  profileId(): string
  signedIn(): boolean
  cache: { get(profileId: string): CachedCatalog; stale(profileId: string): boolean; refresh(profileId: string): Promise<void> }
  book: { get(profileId: string): readonly ImageEntry[]; change(next: (book: ImageBook) => ImageBook): Promise<void> }
  /** The images the Sandbox comes with, by its names; empty on other profiles. */
  sandboxImages(profileId: string): { imageId: string; name: string }[]
}

/** The view of a profile: its cached catalog and its images, the user's first. */
export function catalogView(services: CatalogServices, profileId: string): CatalogView {
  const builtIn = services.sandboxImages(profileId)
  const nameOf = (imageId: string): string | undefined => builtIn.find((image) => image.imageId === imageId)?.name
  const mine: KnownImage[] = services.book.get(profileId).map((entry) => ({
    imageId: entry.imageId,
    label: entry.label || nameOf(entry.imageId) || entry.imageId,
    source: 'mine',
    ...(entry.lastUsedAt !== undefined ? { lastUsedAt: entry.lastUsedAt } : {})
  }))
  const sandbox: KnownImage[] = builtIn
    .filter((image) => !mine.some((known) => known.imageId === image.imageId))
    .map((image) => ({ imageId: image.imageId, label: image.name || image.imageId, source: 'sandbox' }))
  return { profileId, ...services.cache.get(profileId), images: [...mine, ...sandbox] }
}

export function catalogCommands(
  services: CatalogServices
): CommandGroup<'catalog.get' | 'catalog.refresh' | 'images.save' | 'images.remove'> {
  const current = (): CatalogView => catalogView(services, services.profileId())
  return {
    handlers: {
      'catalog.get': async () => {
        const profileId = services.profileId()
        // In the background: the form opens with what is cached and hears the fresh read (`catalog` event).
        if (services.signedIn() && services.cache.stale(profileId)) void services.cache.refresh(profileId)
        return current()
      },
      'catalog.refresh': async () => {
        if (!services.signedIn()) throw new AppError('no-session', 'Sign in to read the instance types on offer.')
        await services.cache.refresh(services.profileId())
        return current()
      },
      'images.save': async ({ imageId, label }) => {
        const profileId = services.profileId()
        await services.book.change((book) => imageNamed(book, profileId, imageId.trim(), label))
        return current()
      },
      'images.remove': async ({ imageId }) => {
        const profileId = services.profileId()
        await services.book.change((book) => imageForgotten(book, profileId, imageId))
        return current()
      }
    }
  }
}
