/** The account's balance as main's balance model last read it (`balance` event, `balance.get`). */
import type { BalanceSnapshot } from '../../../shared/contract'
import { AnswerOrder } from '../lib/answer-order'
import { call, on } from '../lib/bridge'

class BalanceStore {
  snapshot = $state.raw<BalanceSnapshot>({ balance: null, fetchedAt: null })
  refreshing = $state(false)
  private readonly order = new AnswerOrder()

  listen(): () => void {
    return on(
      'balance',
      this.order.event((snapshot) => {
        this.snapshot = snapshot
      })
    )
  }

  async load(): Promise<void> {
    const { answer, overtaken } = await this.order.ask(() => call('balance.get'))
    if (answer.ok && !overtaken) this.snapshot = answer.value
  }

  async refresh(): Promise<void> {
    this.refreshing = true
    try {
      const { answer, overtaken } = await this.order.ask(() => call('balance.refresh'))
      if (answer.ok && !overtaken) this.snapshot = answer.value
    } finally {
      this.refreshing = false
    }
  }
}

export const balance = new BalanceStore()
