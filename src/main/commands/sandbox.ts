/**
 * What the Sandbox's Settings offer in place of a provider's console: an API key for its account
 * (so "A console API key" can be tried with no account anywhere), and practice money when its
 * balance runs low.
 */
import { SANDBOX_USERNAME } from '../account/profiles'
import type { RunningSandbox } from '../account/sandbox'
import type { BalanceSnapshot } from '../../shared/contract'
import type { CommandGroup } from './dispatcher'

/** How much "Add practice money" adds. */
export const PRACTICE_TOP_UP = 100

export interface SandboxServices {
  /** The running Sandbox, or a refusal in the user's words. */
  runningSandbox(): RunningSandbox
  /** The balance model: read again after money was added. */
  balance: { refresh(): Promise<void>; snapshot(): BalanceSnapshot }
}

export function sandboxCommands(services: SandboxServices): CommandGroup<'sandbox.makeApiKey' | 'sandbox.addMoney'> {
  return {
    handlers: {
      'sandbox.makeApiKey': async () => ({ username: SANDBOX_USERNAME, key: services.runningSandbox().makeApiKey() }),
      'sandbox.addMoney': async () => {
        services.runningSandbox().addMoney(PRACTICE_TOP_UP)
        await services.balance.refresh()
        return services.balance.snapshot()
      }
    }
  }
}
