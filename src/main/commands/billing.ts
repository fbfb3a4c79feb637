/** The account's balance, as the balance model (billing/balance-model.ts) last read it. */
import type { BalanceSnapshot } from '../../shared/contract'
import { AppError } from '../app-error'
import type { CommandGroup } from './dispatcher'

export interface BillingServices {
  signedIn(): boolean
  balance: { snapshot(): BalanceSnapshot; refresh(): Promise<void> }
}

export function billingCommands(services: BillingServices): CommandGroup<'balance.get' | 'balance.refresh'> {
  return {
    handlers: {
      'balance.get': async () => services.balance.snapshot(),
      'balance.refresh': async () => {
        if (!services.signedIn()) throw new AppError('no-session', 'Sign in to see your balance.')
        await services.balance.refresh()
        return services.balance.snapshot()
      }
    }
  }
}
