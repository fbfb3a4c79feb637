/**
 * What the create form offers, as main last told it: the catalog of the session's profile and
 * the images (contract CatalogView). The form opens with what is cached; main reads a fresh
 * catalog in the background and the `catalog` event brings it here.
 */
import type { CatalogView, ErrorInfo } from '../../../shared/contract'
import { AnswerOrder } from '../lib/answer-order'
import { call, on } from '../lib/bridge'

class CatalogStore {
  view = $state.raw<CatalogView | null>(null)
  loadError = $state<ErrorInfo | null>(null)
  private readonly order = new AnswerOrder()

  listen(): () => void {
    return on(
      'catalog',
      this.order.event((view) => {
        this.view = view
      })
    )
  }

  async load(): Promise<void> {
    const { answer, overtaken } = await this.order.ask(() => call('catalog.get'))
    if (answer.ok) {
      if (!overtaken) this.view = answer.value
      this.loadError = null
    } else {
      this.loadError = answer.error
    }
  }

  async refresh(): Promise<void> {
    const { answer, overtaken } = await this.order.ask(() => call('catalog.refresh'))
    if (!answer.ok) this.loadError = answer.error
    else if (!overtaken) this.view = answer.value
  }

  /** Names an image for this profile (adding it when new); answers the problem, if any. */
  async saveImage(imageId: string, label: string): Promise<ErrorInfo | null> {
    // Applied as answered: main sends no event for the image book, so no event can be newer.
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
