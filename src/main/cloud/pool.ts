/**
 * One keep-alive connection pool per cloud address, shared by every client of that address.
 *
 * The watcher, the commands and a re-login each build a client; sharing the pool means they
 * reuse warm TCP/TLS connections instead of opening new ones. Pools are reference-counted and
 * closed when their last client closes. Clients with different trust (ca) or timeouts get
 * different pools, because those settings belong to the connections.
 */
import { createHash } from 'node:crypto'
import type { LookupFunction } from 'node:net'
import { Pool } from 'undici'

export interface PoolSettings {
  /** scheme://host:port */
  origin: string
  connectTimeoutMs: number
  /** Used for both the headers and the between-chunks body timeout. */
  bodyTimeoutMs: number
  /** PEM certificate(s) to trust instead of the system's (HTTPS only): the Sandbox's pinned certificate. */
  ca?: string
  /** Name resolution instead of the system's (tests give made-up host names a loopback address). */
  lookup?: LookupFunction
}

export interface PoolLease {
  readonly pool: Pool
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
  pool: Pool
  leases: number
}

const pools = new Map<string, Entry>()

const lookupIds = new WeakMap<LookupFunction, number>()
let lookupCount = 0

function keyOf(settings: PoolSettings): string {
  const ca = settings.ca ? createHash('sha256').update(settings.ca).digest('hex') : '-'
  let lookup = '-'
  if (settings.lookup) {
    if (!lookupIds.has(settings.lookup)) lookupIds.set(settings.lookup, ++lookupCount)
    lookup = String(lookupIds.get(settings.lookup))
  }
  return [settings.origin, settings.connectTimeoutMs, settings.bodyTimeoutMs, ca, lookup].join('|')
}

export function acquirePool(settings: PoolSettings): PoolLease {
  const key = keyOf(settings)
  let entry = pools.get(key)
  if (!entry || entry.pool.closed || entry.pool.destroyed) {
    entry = {
      pool: new Pool(settings.origin, {
        connections: CONNECTIONS_PER_ORIGIN,
        pipelining: 1,
        keepAliveTimeout: KEEP_ALIVE_MS,
        keepAliveMaxTimeout: KEEP_ALIVE_MS,
        connectTimeout: settings.connectTimeoutMs,
        headersTimeout: settings.bodyTimeoutMs,
        bodyTimeout: settings.bodyTimeoutMs,
        // Node's `ca` replaces the system roots: with it, only the pinned certificate is trusted here.
        ...(settings.ca || settings.lookup
          ? { connect: { ...(settings.ca ? { ca: settings.ca } : {}), ...(settings.lookup ? { lookup: settings.lookup } : {}) } }
          : {})
      }),
      leases: 0
    }
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
