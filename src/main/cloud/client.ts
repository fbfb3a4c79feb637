/**
 * The cloud API client on undici: JSON POSTs over a shared keep-alive pool, the token in the
 * `AccessToken` cookie, every answer parsed with the zod schemas of src/shared/api.ts, and every
 * failure turned into one CloudError (classify.ts) with the token scrubbed out (redact.ts).
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
  type PagerRequest
} from '../../shared/api'
import {
  answerTooLarge,
  exchangeFailure,
  interpretAnswer,
  type CallContext,
  type CloudOperation,
  type HttpAnswer
} from './classify'
import { CloudError, isCloudError } from './errors'
import { walkPages } from './paging'
import { acquirePool } from './pool'
import { redactError } from './redact'
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

/**
 * A cookie value must be a plain token: anything with separators or control characters could
 * smuggle a second cookie or header. JWTs never contain these.
 */
function isCookieSafe(token: string): boolean {
  return /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]+$/.test(token)
}

export function createCloudClient(options: CloudClientOptions): CloudClient {
  const address = parseBaseUrl(options.baseUrl)
  const lease = acquirePool({
    origin: address.origin,
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    ...(options.ca !== undefined && address.origin.startsWith('https:') ? { ca: options.ca } : {})
  })
  let closed = false
  /** The instance total of the last listAllInstances: lets the next walk skip waiting for page 1. */
  let knownTotal: number | undefined
  const now = options.now ?? Date.now
  /** The latest answer's proof of the service's clock; the latest, as clocks drift and jump. */
  let serverClock: ServerClockOffset | undefined

  async function call<T>(
    operation: CloudOperation,
    path: string,
    body: unknown,
    schema: z.ZodType<T>,
    authenticated: boolean
  ): Promise<T> {
    const context: CallContext = { operation, origin: address.origin, now: Date.now }
    // Read even for login, which does not send it: an answer must not echo a token we hold.
    let token: string | undefined
    try {
      if (closed) throw clientClosed(context)
      token = options.token()
      if (authenticated && token !== undefined && !isCookieSafe(token)) throw damagedToken()
      const sent = authenticated ? token : undefined
      const sentAt = now()
      const answer = await exchange(lease.pool, address.pathPrefix + path, body, sent, context)
      serverClock = offsetFromDate(answer.date, sentAt, now()) ?? serverClock
      return interpretAnswer(answer, schema, context)
    } catch (error) {
      const typed = isCloudError(error) ? error : exchangeFailure(error, context)
      throw redactError(typed, token)
    }
  }

  async function listInstances(pager: PagerRequest) {
    return call('listInstances', '/instance/list', { pager }, ListInstancesResponseSchema, true)
  }

  return {
    baseUrl: options.baseUrl,

    login: (request) => call('login', '/user/login', request, LoginResultSchema, false),

    listInstances,

    async listAllInstances(listOptions) {
      const pageSize = Math.max(1, Math.floor(listOptions?.pageSize ?? DEFAULT_LIST_PAGE_SIZE))
      const walk = await walkPages<Instance>(
        async (pager) => {
          const page = await listInstances(pager)
          return { items: page.instances, pager: page.pager }
        },
        {
          pageSize,
          concurrency: LIST_CONCURRENCY,
          maxPages: MAX_PAGES,
          keyOf: (instance) => instance.instanceMetadata.instanceId,
          ...(knownTotal !== undefined ? { expectedTotal: knownTotal } : {})
        }
      )
      knownTotal = walk.pageSizeHonored ? walk.totalEntries : undefined
      return walk.items
    },

    createInstance: (request) =>
      call('createInstance', '/instance/create', request, InstanceIdResponseSchema, true),

    stopInstance: (instanceId) =>
      call('stopInstance', '/instance/stop', { instanceId }, InstanceIdResponseSchema, true),

    terminateInstance: (instanceId) =>
      call('terminateInstance', '/instance/terminate', { instanceId }, InstanceIdResponseSchema, true),

    async createVolume(request) {
      const answer = await call('createVolume', '/storage/volume/create', request, CreateVolumeResponseSchema, true)
      return answer.volume
    },

    async listVolumes(pager) {
      const answer = await call('listVolumes', '/storage/volume/list', { pager }, ListVolumesResponseSchema, true)
      return answer.volumeList
    },

    serverClock: () => serverClock,

    async close() {
      if (closed) return
      closed = true
      await lease.release()
    }
  }
}

/** One POST: sends JSON, reads the whole answer as text (bounded), always frees the socket. */
async function exchange(
  pool: Dispatcher,
  path: string,
  body: unknown,
  token: string | undefined,
  context: CallContext
): Promise<HttpAnswer> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json'
  }
  if (token !== undefined) headers['cookie'] = `AccessToken=${token}`
  const response = await pool.request({ method: 'POST', path, headers, body: JSON.stringify(body) })
  const chunks: Buffer[] = []
  let size = 0
  // Leaving this loop early (too large, socket error) destroys the body stream, freeing the socket.
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_ANSWER_BYTES) throw answerTooLarge(context, response.statusCode, MAX_ANSWER_BYTES)
    chunks.push(chunk)
  }
  const date = response.headers['date']
  return {
    status: response.statusCode,
    text: Buffer.concat(chunks).toString('utf8'),
    ...(typeof date === 'string' ? { date } : {})
  }
}

function clientClosed(context: CallContext): CloudError {
  return new CloudError(
    'network',
    `Could not reach ${context.origin}: this connection was already closed. Try again; if it keeps happening, restart Cloud Tray.`
  )
}

function damagedToken(): CloudError {
  return new CloudError(
    'not-logged-in',
    'The saved login is damaged and cannot be used. Log in again to continue.'
  )
}
