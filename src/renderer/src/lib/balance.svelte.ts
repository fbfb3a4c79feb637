/** The account's balance as main's balance model last read it (`balance` event, `balance.get`). */
import type { BalanceSnapshot } from '../../../shared/contract'
import { call, on } from './bridge'

class BalanceStore {
  snapshot = $state.raw<BalanceSnapshot>({ balance: null, fetchedAt: null })
  refreshing = $state(false)

  listen(): () => void {
    return on('balance', (snapshot) => {
      this.snapshot = snapshot
    })
  }

  async load(): Promise<void> {
    const result = await call('balance.get')
    if (result.ok) this.snapshot = result.value
  }

  async refresh(): Promise<void> {
    this.refreshing = true
    try {
      const result = await call('balance.refresh')
      if (result.ok) this.snapshot = result.value
    } finally {
      this.refreshing = false
    }
  }
}

export const balance = new BalanceStore()
