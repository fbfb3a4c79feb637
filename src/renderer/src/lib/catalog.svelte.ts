/**
 * What the create form offers, as main last told it: the catalog of the session's profile and
 * the images (contract CatalogView). The form opens with what is cached; main reads a fresh
 * catalog in the background and the `catalog` event brings it here.
 */
import type { CatalogView, ErrorInfo } from '../../../shared/contract'
import { call, on } from './bridge'

class CatalogStore {
  view = $state.raw<CatalogView | null>(null)
  loadError = $state<ErrorInfo | null>(null)

  listen(): () => void {
    return on('catalog', (view) => {
      this.view = view
    })
  }

  async load(): Promise<void> {
    const result = await call('catalog.get')
    if (result.ok) {
      this.view = result.value
      this.loadError = null
    } else {
      this.loadError = result.error
    }
  }

  async refresh(): Promise<void> {
    const result = await call('catalog.refresh')
    if (result.ok) this.view = result.value
    else this.loadError = result.error
  }

  /** Names an image for this profile (adding it when new); answers the problem, if any. */
  async saveImage(imageId: string, label: string): Promise<ErrorInfo | null> {
    const result = await call('images.save', { imageId, label })
    if (result.ok) this.view = result.value
    return result.ok ? null : result.error
  }

  async removeImage(imageId: string): Promise<void> {
    const result = await call('images.remove', { imageId })
    if (result.ok) this.view = result.value
  }
}

export const catalog = new CatalogStore()
