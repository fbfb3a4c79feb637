/**
 * What the create form offers, as main last told it: the catalog of the session's profile and
 * the images (contract CatalogView). The form opens with what is cached; main reads a fresh
 * catalog in the background and the `catalog` event brings it here.
 */
import type { CatalogView, ErrorInfo } from '../../../shared/contract'
import { call } from '../lib/bridge'
import { Mirror, MirroredStore } from '../lib/mirror.svelte'

class CatalogStore extends MirroredStore {
  protected readonly mirror = new Mirror({ event: 'catalog', read: () => call('catalog.get'), initial: null as CatalogView | null })

  get view(): CatalogView | null {
    return this.mirror.value
  }

  async refresh(): Promise<void> {
    await this.mirror.ask(() => call('catalog.refresh'))
  }

  /** Names an image for this profile (adding it when new); answers the problem, if any. */
  async saveImage(imageId: string, label: string): Promise<ErrorInfo | null> {
    // Applied as answered: main sends no event for the image book, so no event can be newer.
    const result = await call('images.save', { imageId, label })
    if (result.ok) this.mirror.set(result.value)
    return result.ok ? null : result.error
  }

  async removeImage(imageId: string): Promise<void> {
    const result = await call('images.remove', { imageId })
    if (result.ok) this.mirror.set(result.value)
  }
}

export const catalog = new CatalogStore()
