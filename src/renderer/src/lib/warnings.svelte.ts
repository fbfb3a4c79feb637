/** Lasting conditions main warns about (a settings file set aside, no keychain, …), shown as banners until dismissed. */
import type { Warning } from '../../../shared/contract'
import { AnswerOrder } from './answer-order'
import { call, on } from './bridge'

class WarningsStore {
  list = $state<Warning[]>([])
  private readonly order = new AnswerOrder()

  listen(): () => void {
    return on(
      'warning',
      this.order.event((warning) => {
        const others = this.list.filter((w) => w.id !== warning.id)
        this.list = warning.cleared ? others : [...others, warning]
      })
    )
  }

  async load(): Promise<void> {
    const { answer, overtaken } = await this.order.ask(() => call('warnings.get'))
    if (!answer.ok) return
    // A warning that came while the call was out is kept beside the answer's.
    this.list = overtaken ? [...answer.value.filter((w) => !this.list.some((shown) => shown.id === w.id)), ...this.list] : answer.value
  }

  dismiss(id: string): void {
    this.list = this.list.filter((w) => w.id !== id)
  }
}

export const warnings = new WarningsStore()
