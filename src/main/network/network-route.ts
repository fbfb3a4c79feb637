/**
 * How the API client reaches the cloud: through which proxy for each address, trusting which
 * certificate authorities. Each shell brings its way of asking for the proxy (Electron asks
 * Chromium, proxy-adapter.ts; the web shell and tests read the environment); the trust is the
 * same everywhere (system-trust.ts), built once and shared by every connection.
 */
import { createSecureContext, type SecureContext } from 'node:tls'
import { environmentProxy, firstUsableProxy, isLoopback, type ProxyChoice } from './proxy-rules'
import { systemTrust, type SystemTrust } from './system-trust'

export interface NetworkRoute {
  /** The proxy for a request to `url`, as the shell's rules decide. */
  proxyFor(url: string): Promise<ProxyChoice>
  /** TLS trust for the cloud's connections: Node's roots and the OS's (never for a pinned Sandbox). */
  secureContext(): SecureContext
  /**
   * The Proxy-Authorization (`Basic …`) the user gave for this proxy (`http://host:port`), if
   * any (proxy-auth.ts). Absent: no one is asked; a URI's own user name and password still work.
   */
  proxyToken?(proxyUri: string): string | undefined
  /** Changes whenever the proxy credentials change: a client asks again instead of keeping its pool. */
  revision?(): number
  /**
   * A proxy answered 407 to a tunnel to `target` (an origin), having been sent `sent` (the
   * token, or nothing): the user is asked for a user name and password. True when credentials
   * the call did not send are there now (the keychain's, or newer): it may try once more.
   */
  proxyRefused?(proxyUri: string, target: string, sent: string | undefined): Promise<boolean>
}

export interface RouteOptions {
  /** Asks for the PAC-style answer (`PROXY host:port; DIRECT`): Electron's session.resolveProxy. */
  resolveProxy?: (url: string) => Promise<string>
  /** Default process.env: read when there is no resolveProxy. */
  env?: NodeJS.ProcessEnv
  /** Default: systemTrust(). */
  trust?: () => SystemTrust
  log?: (line: string) => void
}

export function createNetworkRoute(options: RouteOptions = {}): NetworkRoute {
  let context: SecureContext | undefined
  return {
    async proxyFor(url) {
      if (isLoopback(new URL(url).hostname)) return { kind: 'direct' }
      if (!options.resolveProxy) return environmentProxy(url, options.env ?? process.env)
      try {
        return firstUsableProxy(await options.resolveProxy(url))
      } catch (error) {
        options.log?.(`proxy: could not ask for ${new URL(url).origin}: ${String(error)}; going direct`)
        return { kind: 'direct' }
      }
    },
    secureContext() {
      if (!context) {
        const trust = (options.trust ?? systemTrust)()
        options.log?.(`TLS trust: ${trust.certificates.length} certificates (system: ${trust.source})`)
        context = createSecureContext({ ca: trust.certificates })
      }
      return context
    }
  }
}
