/**
 * One keep-alive connection pool per cloud address, shared by every client of that address.
 *
 * The watcher, the commands and a re-login each build a client; sharing the pool means they
 * reuse warm TCP/TLS connections instead of opening new ones. Pools are reference-counted and
 * closed when their last client closes. Clients with different trust (ca) or timeouts get
 * different pools, because those settings belong to the connections; so does the proxy an
 * address goes through (network/network-route.ts), which makes it a ProxyAgent instead.
 */
import { createHash } from 'node:crypto'
import type { LookupFunction } from 'node:net'
import type { SecureContext } from 'node:tls'
import { Pool, ProxyAgent, type Dispatcher } from 'undici'

export interface PoolSettings {
  /** scheme://host:port */
  origin: string
  connectTimeoutMs: number
  /** Used for both the headers and the between-chunks body timeout. */
  bodyTimeoutMs: number
  /** PEM certificate(s) to trust instead of any other (HTTPS only): the Sandbox's pinned certificate. */
  ca?: string
  /** Otherwise the trust of every cloud connection: Node's roots and the OS's (network/system-trust.ts). */
  secureContext?: SecureContext
  /** Name resolution instead of the system's (tests give made-up host names a loopback address). */
  lookup?: LookupFunction
  /** Through this proxy (http://, https:// or socks5://), tunnelled with CONNECT; absent: direct. */
  proxy?: string
  /**
   * The proxy's Proxy-Authorization (`Basic …`) from the user name and password the user gave
   * (network/proxy-auth.ts); it wins over a user name and password in the proxy's URI.
   */
  proxyToken?: string
}

export interface PoolLease {
  readonly pool: Dispatcher
  /** Gives the lease back; closes the pool when it was the last one. Idempotent. */
  release(): Promise<void>
}

/**
 * Enough connections for listAllInstances' concurrent pages plus a command or two alongside.
 * More would only queue on a single-threaded server anyway.
 */
const CONNECTIONS_PER_ORIGIN = 8
/**
 * Idle sockets are dropped after this (undici honours a shorter `Keep-Alive: timeout` hint too).
 * It stays below the common server idle timeouts (Node 5 s, load balancers 60 s and more) so we
 * never send a request on a socket the server is closing: POSTs are not retried, so that race
 * would surface as a spurious network error. A poller every few seconds still reuses sockets.
 */
const KEEP_ALIVE_MS = 4_000

interface Entry {
  pool: Pool | ProxyAgent
  leases: number
}

const pools = new Map<string, Entry>()

/** A number per object (a lookup function, a secure context): the same object, the same pool. */
const objectIds = new WeakMap<object, number>()
let objectCount = 0
const idOf = (value: object | undefined): string => {
  if (!value) return '-'
  if (!objectIds.has(value)) objectIds.set(value, ++objectCount)
  return String(objectIds.get(value))
}

function keyOf(settings: PoolSettings): string {
  const ca = settings.ca ? createHash('sha256').update(settings.ca).digest('hex') : '-'
  return [
    settings.origin,
    settings.connectTimeoutMs,
    settings.bodyTimeoutMs,
    ca,
    idOf(settings.secureContext),
    idOf(settings.lookup),
    settings.proxy ?? '-',
    // New credentials make a new pool; the key holds only a digest of them.
    settings.proxyToken ? createHash('sha256').update(settings.proxyToken).digest('hex') : '-'
  ].join('|')
}

function createDispatcher(settings: PoolSettings): Pool | ProxyAgent {
  // Node's `ca` replaces every other root: with it, only the pinned certificate is trusted here.
  const tls = {
    ...(settings.ca ? { ca: settings.ca } : settings.secureContext ? { secureContext: settings.secureContext } : {}),
    ...(settings.lookup ? { lookup: settings.lookup } : {})
  }
  const common = {
    connections: CONNECTIONS_PER_ORIGIN,
    pipelining: 1,
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: KEEP_ALIVE_MS,
    connectTimeout: settings.connectTimeoutMs,
    headersTimeout: settings.bodyTimeoutMs,
    bodyTimeout: settings.bodyTimeoutMs
  }
  if (settings.proxy) {
    // The proxy resolves the cloud's name; TLS to the cloud runs inside the tunnel with our trust.
    const proxyTls = settings.secureContext ? { secureContext: settings.secureContext } : {}
    const auth = settings.proxyToken ? { token: settings.proxyToken } : {}
    return new ProxyAgent({ ...common, uri: settings.proxy, requestTls: tls, proxyTls, ...auth })
  }
  return new Pool(settings.origin, { ...common, ...(Object.keys(tls).length > 0 ? { connect: tls } : {}) })
}

export function acquirePool(settings: PoolSettings): PoolLease {
  const key = keyOf(settings)
  let entry = pools.get(key)
  // ProxyAgent has `closed` and `destroyed` too (DispatcherBase); its types do not say so.
  const over = (pool: Pool | ProxyAgent): boolean => Boolean((pool as Pool).closed || (pool as Pool).destroyed)
  if (!entry || over(entry.pool)) {
    entry = { pool: createDispatcher(settings), leases: 0 }
    pools.set(key, entry)
  }
  entry.leases += 1
  const held = entry
  let released = false
  return {
    pool: held.pool,
    async release() {
      if (released) return
      released = true
      held.leases -= 1
      if (held.leases > 0) return
      if (pools.get(key) === held) pools.delete(key)
      await held.pool.close()
    }
  }
}

/** Number of live shared pools (for tests). */
export function openPoolCount(): number {
  return pools.size
}
