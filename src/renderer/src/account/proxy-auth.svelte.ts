/**
 * The company proxy that asks for a user name and password (main's network/proxy-auth.ts): which
 * proxy is asking, as main last said, and the dialog's two answers. The password passes through
 * here on its way to main and is never kept: the dialog's field is the only place it lives.
 */
import type { ProxyAuthState, ProxyQuestion, ProxySignInInput } from '../../../shared/contract-proxy'
import type { ErrorInfo } from '../../../shared/errors'
import { call } from '../lib/bridge'
import { Mirror, MirroredStore } from '../lib/mirror.svelte'
import { toasts } from '../lib/toasts.svelte'

/** What a failed sign-in says, and beside which field (`password`: the proxy refused the pair). */
export interface ProxySignInProblem {
  field: 'password' | null
  text: string
}

/** The dialog's words for a question: which proxy, and that Cloud Tray goes on by itself. */
export function proxyQuestionText(question: ProxyQuestion): { description: string; refused: string | null } {
  return {
    description: `The proxy "${question.proxy}" on your network asks for a user name and password before Cloud Tray can reach the cloud. Once it lets them through, Cloud Tray retries by itself.`,
    refused: question.rejected ? 'The proxy did not accept that user name and password. Enter them again.' : null
  }
}

export function signInProblem(error: ErrorInfo): ProxySignInProblem {
  return { field: error.field === 'password' ? 'password' : null, text: error.message }
}

class ProxyAuthStore extends MirroredStore {
  protected readonly mirror = new Mirror({
    event: 'proxy.auth',
    read: () => call('proxy.get'),
    initial: { asking: null } as ProxyAuthState
  })

  get asking(): ProxyQuestion | null {
    return this.mirror.value.asking
  }

  /** Null when the proxy took them (the dialog closes); else what to say, the fields left as typed. */
  async signIn(input: ProxySignInInput): Promise<ProxySignInProblem | null> {
    const result = await this.mirror.ask(() => call('proxy.signIn', input))
    if (!result.ok) return signInProblem(result.error)
    if (result.value.keychainProblem) toasts.show('warning', 'Not remembered in the keychain', result.value.keychainProblem)
    return null
  }

  async cancel(proxy: string): Promise<void> {
    await this.mirror.ask(() => call('proxy.cancel', { proxy }))
  }
}

export const proxyAuth = new ProxyAuthStore()
