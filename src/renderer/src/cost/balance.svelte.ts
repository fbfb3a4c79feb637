/** The account's balance as main's balance model last read it (`balance` event, `balance.get`). */
import type { BalanceSnapshot } from '../../../shared/contract'
import { call } from '../lib/bridge'
import { Mirror, MirroredStore } from '../lib/mirror.svelte'

class BalanceStore extends MirroredStore {
  protected readonly mirror = new Mirror({
    event: 'balance',
    read: () => call('balance.get'),
    initial: { balance: null, fetchedAt: null } as BalanceSnapshot
  })

  get snapshot(): BalanceSnapshot {
    return this.mirror.value
  }
}

export const balance = new BalanceStore()
