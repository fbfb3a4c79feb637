/**
 * The cloud API client on undici: JSON POSTs (and GET /balance) over a shared keep-alive pool,
 * the credential on every call but login (a console API key as `X-API-Key`, else the token in
 * the `AccessToken` cookie), every answer parsed with the zod schemas of src/shared, redirects
 * followed only within the same site (redirects.ts), and every failure turned into one
 * CloudError (classify.ts) with the credential scrubbed out (redact.ts).
 */
import type { Dispatcher } from 'undici'
import type { z } from 'zod'
import {
  CreateVolumeResponseSchema,
  InstanceIdResponseSchema,
  ListInstancesResponseSchema,
  ListVolumesResponseSchema,
  LoginResultSchema,
  type Instance,
  type PagerRequest,
  type UnreadableInstance
} from '../../shared/api'
import { BalanceResponseSchema } from '../../shared/balance'
import { CatalogResponseSchema } from '../../shared/catalog'
import {
  answerTooLarge,
  exchangeFailure,
  interpretAnswer,
  isProxyAuthRefusal,
  type CallContext,
  type CloudOperation,
  type HttpAnswer
} from './classify'
import { CloudError, isCloudError } from './errors'
import { walkPages } from './paging'
import { hasUserInfo, proxyHostPort } from '../network/proxy-rules'
import { acquirePool, type PoolLease } from './pool'
import { isCookieValue } from './cookie-value'
import { redactError } from './redact'
import { REDIRECT_STATUSES, decideRedirect } from './redirects'
import { offsetFromDate, type ServerClockOffset } from './server-clock'
import type { CloudClient, CloudClientOptions } from './types'

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000
export const DEFAULT_BODY_TIMEOUT_MS = 30_000
/** Default page size of listAllInstances. */
export const DEFAULT_LIST_PAGE_SIZE = 50
/** Pages fetched at once after the first: enough to hide latency, polite to the service. */
export const LIST_CONCURRENCY = 4
/** 2000 pages of 50 is 100 000 instances: far beyond any account, low enough to stop a runaway. */
const MAX_PAGES = 2000
/** How long an address keeps the proxy it was given before the network route is asked again. */
const ROUTE_TTL_MS = 60_000
/** A 1000-instance page is a few MB; anything past this is not a real answer. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024

export interface CloudAddress {
  /** scheme://host:port */
  origin: string
  /** The base URL's path without a trailing slash, e.g. `/api` (may be empty). */
  pathPrefix: string
}

/**
 * Checks a profile's base URL. Throws a CloudError (`network`, as the address is where the
 * network call would go) with a message saying how to fix it; profiles can call this to
 * validate an address before saving it.
 */
export function parseBaseUrl(baseUrl: string): CloudAddress {
  let url: URL
  try {
    url = new URL(baseUrl.trim())
  } catch {
    throw invalidAddress(baseUrl)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    throw invalidAddress(baseUrl)
  }
  if (url.search || url.hash) throw invalidAddress(baseUrl)
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') }
}

function invalidAddress(baseUrl: string): CloudError {
  const shown = baseUrl.length > 120 ? `${baseUrl.slice(0, 119)}…` : baseUrl
  return new CloudError(
    'network',
    `"${shown}" is not a usable cloud address. Enter an http:// or https:// address such as https://hpc-ai.com/api in the profile.`
  )
}

/** A header value must be one line of printable ASCII: a key with anything else could smuggle a header. */
function isHeaderSafe(key: string): boolean {
  return /^[\x21-\x7e]+$/.test(key)
}

/** An origin's pool, the proxy it goes through and the credentials that proxy was given. */
interface Held {
  lease: PoolLease
  proxy: string | undefined
  proxyToken: string | undefined
  at: number
  /** The network route's revision when it was asked. */
  revision: number
}

/** What one call sends to prove who it is: nothing (login), the API key, or the token. */
type Sent = { kind: 'api-key'; value: string } | { kind: 'token'; value: string } | undefined

export function createCloudClient(options: CloudClientOptions): CloudClient {
  const address = parseBaseUrl(options.baseUrl)
  const leases = new Map<string, Held>()
  const revision = (): number => options.network?.revision?.() ?? 0
  /**
   * The keep-alive pool of an origin (the profile's, or a same-site origin a redirect named),
   * through the proxy the network route names for it, asked again after ROUTE_TTL_MS (a VPN or
   * a PAC file may change it) and whenever proxy credentials change; a changed answer gets a
   * new pool.
   */
  const dispatcherFor = async (origin: string): Promise<Held> => {
    const held = leases.get(origin)
    if (held && (!options.network || (Date.now() - held.at < ROUTE_TTL_MS && held.revision === revision()))) return held
    const seen = revision()
    const route = options.network ? await options.network.proxyFor(`${origin}/`) : undefined
    const proxy = route?.kind === 'proxy' ? route.uri : undefined
    const proxyToken = proxy ? options.network?.proxyToken?.(proxy) : undefined
    const current = leases.get(origin)
    if (current && current.proxy === proxy && current.proxyToken === proxyToken) {
      current.at = Date.now()
      current.revision = seen
      return current
    }
    const https = origin.startsWith('https:')
    const lease = acquirePool({
      origin,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
      ...(options.ca !== undefined && https ? { ca: options.ca } : {}),
      ...(options.ca === undefined && https && options.network ? { secureContext: options.network.secureContext() } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
      ...(proxy ? { proxy } : {}),
      ...(proxyToken ? { proxyToken } : {})
    })
    const fresh: Held = { lease, proxy, proxyToken, at: Date.now(), revision: seen }
    leases.set(origin, fresh)
    if (current) void current.lease.release()
    return fresh
  }
  // Without a route to ask, the pool is there at once (and shared with the other clients of this address).
  if (!options.network) void dispatcherFor(address.origin)
  let closed = false
  /** The instance total of the last listAllInstances: lets the next walk skip waiting for page 1. */
  let knownTotal: number | undefined
  const now = options.now ?? Date.now
  /** The latest answer's proof of the service's clock; the latest, as clocks drift and jump. */
  let serverClock: ServerClockOffset | undefined

  /** `body` undefined: a GET. */
  async function call<T>(operation: CloudOperation, path: string, body: unknown, schema: z.ZodType<T>, authenticated: boolean): Promise<T> {
    const context: CallContext = { operation, origin: address.origin, now: Date.now }
    // Read even for login, which does not send them: an answer must not echo a secret we hold.
    let token: string | undefined
    let apiKey: string | undefined
    try {
      if (closed) throw clientClosed(context)
      token = options.token()
      apiKey = options.apiKey?.()
      let sent: Sent
      if (authenticated && apiKey !== undefined) {
        if (!isHeaderSafe(apiKey)) throw damagedKey()
        sent = { kind: 'api-key', value: apiKey }
      } else if (authenticated && token !== undefined) {
        if (!isCookieValue(token)) throw damagedToken()
        sent = { kind: 'token', value: token }
      }
      if (sent) context.credential = sent.kind
      const sentAt = now()
      const answer = await exchangeFollowing(address.origin + address.pathPrefix + path, body, sent, context)
      serverClock = offsetFromDate(answer.date, sentAt, now()) ?? serverClock
      return interpretAnswer(answer, schema, context)
    } catch (error) {
      const typed = isCloudError(error) ? error : exchangeFailure(error, context)
      throw redactError(redactError(typed, token), apiKey)
    }
  }

  /** One exchange, and again at the address of each same-site redirect (redirects.ts). */
  async function exchangeFollowing(url: string, body: unknown, sent: Sent, context: CallContext): Promise<HttpAnswer> {
    let target = new URL(url)
    for (let hops = 0; ; hops++) {
      const answer = await exchangeVia(target, body, sent, context)
      if (!REDIRECT_STATUSES.has(answer.status)) return answer
      const decision = decideRedirect(answer.location, target, hops)
      if (!decision.follow) throw refusedRedirect(decision, answer.status, context)
      target = decision.url
    }
  }

  /**
   * One exchange through the origin's pool. A proxy's 407 names the proxy in the message and asks
   * the user; when credentials the call did not send are there already (the keychain's, or given
   * meanwhile), it is sent once more: the tunnel was refused before anything reached the cloud,
   * so even a create cannot happen twice.
   */
  async function exchangeVia(target: URL, body: unknown, sent: Sent, context: CallContext): Promise<HttpAnswer> {
    for (let attempt = 0; ; attempt++) {
      const held = await dispatcherFor(target.origin)
      try {
        return await exchange(held.lease.pool, target, body, sent, context)
      } catch (error) {
        if (!held.proxy || !isProxyAuthRefusal(error)) throw error
        context.proxy = { hostPort: proxyHostPort(held.proxy), sentCredentials: held.proxyToken !== undefined || hasUserInfo(held.proxy) }
        const fresh = await options.network?.proxyRefused?.(held.proxy, target.origin, held.proxyToken)
        if (!fresh || attempt > 0) throw error
      }
    }
  }

  async function listInstances(pager: PagerRequest) {
    return call('listInstances', '/instance/list', { pager }, ListInstancesResponseSchema, true)
  }

  /** A list row: read, or unreadable (keyed so the walk lists each once, like instances). */
  type Row = { instance: Instance } | { unreadable: UnreadableInstance; key: string }
  let anonymous = 0

  return {
    baseUrl: options.baseUrl,

    login: (request) => call('login', '/user/login', request, LoginResultSchema, false),

    listInstances,

    async listAllInstances(listOptions) {
      const pageSize = Math.max(1, Math.floor(listOptions?.pageSize ?? DEFAULT_LIST_PAGE_SIZE))
      const walk = await walkPages<Row>(
        async (pager) => {
          const page = await listInstances(pager)
          const rows: Row[] = [
            ...page.instances.map((instance) => ({ instance })),
            ...page.unreadable.map((unreadable) => ({
              unreadable,
              key: unreadable.instanceId !== null ? `unreadable:${unreadable.instanceId}` : `unreadable#${++anonymous}`
            }))
          ]
          return { items: rows, pager: page.pager }
        },
        {
          pageSize,
          concurrency: LIST_CONCURRENCY,
          maxPages: MAX_PAGES,
          keyOf: (row) => ('instance' in row ? row.instance.instanceMetadata.instanceId : row.key),
          ...(knownTotal !== undefined ? { expectedTotal: knownTotal } : {})
        }
      )
      knownTotal = walk.pageSizeHonored ? walk.totalEntries : undefined
      return {
        instances: walk.items.flatMap((row) => ('instance' in row ? [row.instance] : [])),
        unreadable: walk.items.flatMap((row) => ('unreadable' in row ? [row.unreadable] : []))
      }
    },

    createInstance: (request) => call('createInstance', '/instance/create', request, InstanceIdResponseSchema, true),

    stopInstance: (instanceId) => call('stopInstance', '/instance/stop', { instanceId }, InstanceIdResponseSchema, true),

    terminateInstance: (instanceId) => call('terminateInstance', '/instance/terminate', { instanceId }, InstanceIdResponseSchema, true),

    async createVolume(request) {
      const answer = await call('createVolume', '/storage/volume/create', request, CreateVolumeResponseSchema, true)
      return answer.volume
    },

    async listVolumes(pager) {
      const answer = await call('listVolumes', '/storage/volume/list', { pager }, ListVolumesResponseSchema, true)
      return answer.volumeList
    },

    // The real launch form's feed takes an empty object (hpcai-api-facts.md 2.9).
    catalog: () => call('catalog', '/resource/user/instance/list', {}, CatalogResponseSchema, true),

    balance: () => call('balance', '/balance', undefined, BalanceResponseSchema, true),

    serverClock: () => serverClock,

    async close() {
      if (closed) return
      closed = true
      await Promise.all([...leases.values()].map((held) => held.lease.release()))
      leases.clear()
    }
  }
}

/**
 * One request (a POST with a JSON body; a GET when `body` is undefined): reads the whole answer
 * as text (bounded), always frees the socket.
 */
async function exchange(pool: Dispatcher, target: URL, body: unknown, sent: Sent, context: CallContext): Promise<HttpAnswer> {
  const origin = target.origin
  const path = target.pathname + target.search
  const headers: Record<string, string> = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (sent?.kind === 'api-key') headers['x-api-key'] = sent.value
  if (sent?.kind === 'token') headers['cookie'] = `AccessToken=${sent.value}`
  const response = await pool.request(
    body === undefined ? { origin, method: 'GET', path, headers } : { origin, method: 'POST', path, headers, body: JSON.stringify(body) }
  )
  const chunks: Buffer[] = []
  let size = 0
  // Leaving this loop early (too large, socket error) destroys the body stream, freeing the socket.
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_ANSWER_BYTES) throw answerTooLarge(context, response.statusCode, MAX_ANSWER_BYTES)
    chunks.push(chunk)
  }
  const date = response.headers['date']
  const location = response.headers['location']
  return {
    status: response.statusCode,
    text: Buffer.concat(chunks).toString('utf8'),
    ...(typeof date === 'string' ? { date } : {}),
    ...(typeof location === 'string' ? { location } : {})
  }
}

/** A redirect the client does not follow: where it pointed, and what to do about it. */
function refusedRedirect(
  decision: Exclude<ReturnType<typeof decideRedirect>, { follow: true }>,
  status: number,
  context: CallContext
): CloudError {
  const what = `${context.origin} answered with a redirect (HTTP ${status})`
  const message =
    decision.reason === 'no-location'
      ? `${what} without saying where to. Check the profile's address (for example https://hpc-ai.com/api).`
      : decision.reason === 'too-many'
        ? `${what} again and again, last to ${decision.shown}. Check the profile's address (for example https://hpc-ai.com/api).`
        : `${what} to ${decision.shown}, another site. Cloud Tray sends your sign-in only to the profile's own site, so it did not follow. If that is the cloud's new address, put it in the profile.`
  return new CloudError('unexpected-response', message, { status })
}

function clientClosed(context: CallContext): CloudError {
  return new CloudError(
    'network',
    `Could not reach ${context.origin}: this connection was already closed. Try again; if it keeps happening, restart Cloud Tray.`
  )
}

function damagedKey(): CloudError {
  return new CloudError('not-logged-in', 'The saved API key is damaged and cannot be used. Sign in again with your API key.')
}

function damagedToken(): CloudError {
  return new CloudError('not-logged-in', 'The saved login is damaged and cannot be used. Log in again to continue.')
}
