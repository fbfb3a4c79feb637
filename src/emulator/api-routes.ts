/**
 * The cloud API's endpoints, behind /api. Each handler gets a parsed JSON object body and, for
 * every endpoint but login, the user the AccessToken cookie or the X-API-Key header proves; it
 * returns the success body or throws ApiError / FieldError, which server.ts turns into the
 * spec's error bodies. Beyond the spec, as the real service answers them (hpcai-api-facts.md):
 * the launch form's catalog feed (POST /resource/user/instance/list) and GET /balance.
 */
import { BAD_CREDENTIALS_CODE, NOT_LOGGED_IN_CODE } from '../shared/api'
import { ApiError } from './api-error'
import type { Auth } from './auth'
import type { Meter, Wallets } from './billing'
import type { Catalog } from './catalog'
import { catalogFeed } from './catalog-feed'
import { readCreateRequest } from './create-request'
import { optional, readPager, requireBoolean, requireString, type Body } from './fields'
import { toApiInstance, type ReachAddresses } from './instance-record'
import type { InstanceStore } from './instances'
import { toApiVolume, type VolumeStore } from './volumes'

/** Largest page the list endpoints serve (a one-request listing of the benchmark's 1000 fits). */
export const MAX_PAGE_SIZE = 1000

export interface ApiDeps {
  auth: Auth
  instances: InstanceStore
  volumes: VolumeStore
  catalog: () => Catalog
  reach: () => ReachAddresses | undefined
  lockoutMs: number
  wallets: Wallets
  meter: Meter
  /** Emulator time (Unix ms). */
  now: () => number
}

export interface ApiAnswer {
  status: number
  body: unknown
  headers?: Record<string, string>
}

type Handler = (body: Body, username: string) => Promise<unknown> | unknown

export function notLoggedIn(hadToken: boolean): ApiError {
  return new ApiError(401, {
    code: NOT_LOGGED_IN_CODE,
    message: hadToken ? 'Your login has expired or is no longer valid. Log in again.' : 'You are not logged in. Log in and try again.'
  })
}

export function apiKeyRefused(): ApiError {
  return new ApiError(401, { code: NOT_LOGGED_IN_CODE, message: 'The API key is not valid or was revoked.' })
}

export function createApiRoutes(deps: ApiDeps): {
  login(body: Body): Promise<ApiAnswer>
  /** POST routes that need a signed-in user. */
  authed: Map<string, Handler>
  /** GET routes that need a signed-in user (no body: the handler gets `{}`). */
  gets: Map<string, Handler>
} {
  const { auth, instances, volumes } = deps

  async function login(body: Body): Promise<ApiAnswer> {
    const username = requireString(body, 'username')
    const password = requireString(body, 'password')
    optional(body, 'rememberMe', false, () => requireBoolean(body, 'rememberMe'))
    const outcome = await auth.login(username, password)
    if (outcome.ok) {
      const { accessToken, accessExpire } = outcome
      return {
        status: 200,
        body: { accessToken, accessExpire },
        // Also as a cookie, so `curl -c jar` then `curl -b jar` works like a browser session.
        headers: {
          'set-cookie': `AccessToken=${accessToken}; Path=/; Max-Age=${accessExpire}; HttpOnly; SameSite=Lax`
        }
      }
    }
    if (outcome.lockedUntil !== undefined) {
      const until = new Date(outcome.lockedUntil).toISOString()
      const minutes = Math.max(1, Math.ceil(deps.lockoutMs / 60_000))
      throw new ApiError(429, {
        code: BAD_CREDENTIALS_CODE,
        message: `Too many failed logins: this account is locked for ${minutes} minute(s), until ${until.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}. Try again after that.`,
        values: { v0: '0', v1: until }
      })
    }
    const left = outcome.retriesLeft
    throw new ApiError(401, {
      code: BAD_CREDENTIALS_CODE,
      message: `Incorrect user name or password. ${left} ${left === 1 ? 'try' : 'tries'} left before the account is locked.`,
      values: { v0: String(left) }
    })
  }

  const authed = new Map<string, Handler>([
    [
      '/instance/create',
      async (body, username) => {
        const record = await instances.create(username, readCreateRequest(body, deps.catalog()))
        return { instanceId: record.instanceId }
      }
    ],
    [
      '/instance/list',
      (body, username) => {
        const { currentPage, pageSize } = readPager(body, MAX_PAGE_SIZE)
        const { records, totalEntries } = instances.page(username, currentPage, pageSize)
        const reach = deps.reach()
        return { instances: records.map((record) => toApiInstance(record, reach)), pager: { currentPage, pageSize, totalEntries } }
      }
    ],
    ['/instance/stop', (body, username) => ({ instanceId: instances.stop(username, requireString(body, 'instanceId')).instanceId })],
    [
      '/instance/terminate',
      (body, username) => ({ instanceId: instances.terminate(username, requireString(body, 'instanceId')).instanceId })
    ],
    ['/storage/volume/create', (body, username) => ({ volume: toApiVolume(volumes.create(username, body, deps.catalog())) })],
    [
      '/storage/volume/list',
      (body, username) => {
        const { currentPage, pageSize } = readPager(body, MAX_PAGE_SIZE)
        return { volumeList: volumes.page(username, currentPage, pageSize).map(toApiVolume) }
      }
    ],
    // The real feed takes `{}`; whatever the body holds, the whole offering answers.
    ['/resource/user/instance/list', () => catalogFeed(deps.catalog())]
  ])

  const gets = new Map<string, Handler>([
    [
      '/balance',
      (_body, username) => {
        // What the user's instances cost up to now is spent before the balance is read.
        const now = deps.now()
        for (const record of instances.all(username)) deps.meter.charge(record, now)
        return deps.wallets.answer(username)
      }
    ]
  ])

  return { login, authed, gets }
}
