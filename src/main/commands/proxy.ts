/** The company proxy's user name and password (network/proxy-auth.ts): what is asked, the answer, Cancel. */
import type { ProxyAuthState, ProxySignInInput, ProxySignedIn } from '../../shared/contract-proxy'
import type { CommandGroup } from './dispatcher'

export interface ProxyDesk {
  state(): ProxyAuthState
  signIn(input: ProxySignInInput): Promise<ProxySignedIn>
  cancel(proxy: string): ProxyAuthState
}

export function proxyCommands(proxies: ProxyDesk): CommandGroup<'proxy.get' | 'proxy.signIn' | 'proxy.cancel'> {
  return {
    handlers: {
      'proxy.get': async () => proxies.state(),
      'proxy.signIn': (input) => proxies.signIn(input),
      'proxy.cancel': async ({ proxy }) => proxies.cancel(proxy)
    }
  }
}
