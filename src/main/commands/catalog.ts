/**
 * What the create form offers (catalog/catalog.ts): the cached catalog of the session's profile,
 * read in the background when stale and never waited for, and the images, named by the user.
 */
import type { CatalogView } from '../../shared/contract'
import { AppError } from '../app-error'
import type { Catalog } from '../catalog/catalog'
import { imageForgotten, imageNamed } from '../catalog/image-book'
import type { CommandGroup } from './dispatcher'

export function catalogCommands(catalog: Catalog): CommandGroup<'catalog.get' | 'catalog.refresh' | 'images.save' | 'images.remove'> {
  const current = (): CatalogView => catalog.view(catalog.profileId())
  return {
    handlers: {
      'catalog.get': async () => {
        const profileId = catalog.profileId()
        // In the background: the form opens with what is cached and hears the fresh read (`catalog` event).
        if (catalog.signedIn() && catalog.cache.stale(profileId)) void catalog.cache.refresh(profileId)
        return current()
      },
      'catalog.refresh': async () => {
        if (!catalog.signedIn()) throw new AppError('no-session', 'Sign in to read the instance types on offer.')
        await catalog.cache.refresh(catalog.profileId())
        return current()
      },
      'images.save': async ({ imageId, label }) => {
        const profileId = catalog.profileId()
        await catalog.book.change((book) => imageNamed(book, profileId, imageId.trim(), label))
        return current()
      },
      'images.remove': async ({ imageId }) => {
        const profileId = catalog.profileId()
        await catalog.book.change((book) => imageForgotten(book, profileId, imageId))
        return current()
      }
    }
  }
}
