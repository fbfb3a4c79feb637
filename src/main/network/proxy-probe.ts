/**
 * Asks a proxy, with a user name and password, for the tunnel it refused: one CONNECT to the
 * address that met the 407, closed as soon as the answer's status is known. It proves the
 * credentials to the proxy itself, so the dialog can say "not accepted" at once, beside what the
 * user typed, instead of a later poll failing somewhere else. undici is loaded on first need, as
 * the API client is (cloud-clients.ts): a shell that never meets a proxy never loads it for this.
 */
import type { SecureContext } from 'node:tls'
import type { ProxyProbe } from './proxy-auth'

export interface ProbeOptions {
  /** TLS trust towards an https:// proxy: the cloud's (network-route.ts). */
  secureContext?: () => SecureContext
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 10_000

export function connectProbe(options: ProbeOptions = {}): ProxyProbe {
  return async (proxyUri, target, token) => {
    const { Client } = await import('undici')
    const proxy = new URL(proxyUri)
    const destination = new URL(target)
    const port = destination.port || (destination.protocol === 'https:' ? '443' : '80')
    const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const client = new Client(proxy.origin, {
      connectTimeout: timeout,
      headersTimeout: timeout,
      ...(proxy.protocol === 'https:' && options.secureContext ? { connect: { secureContext: options.secureContext() } } : {})
    })
    try {
      const { statusCode, socket } = await client.connect({
        path: `${destination.hostname}:${port}`,
        headers: { host: `${destination.hostname}:${port}`, 'proxy-authorization': token }
      })
      socket.destroy()
      if (statusCode === 407) return 'refused'
      if (statusCode >= 200 && statusCode < 300) return 'accepted'
      throw new Error(`it answered HTTP ${statusCode}`)
    } finally {
      await client.destroy().catch(() => undefined)
    }
  }
}
