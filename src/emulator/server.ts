/**
 * The HTTP handlers of the emulator's two listeners: the API (/api/...) and the control plane
 * (/__emulator/..., on a listener of its own so that taking the API "down" never takes control
 * with it). Both refuse, before anything else, requests a browser page could have sent
 * (request-guard.ts); control also needs its secret. Then: body limits, JSON parsing, the
 * AccessToken cookie or X-API-Key header, injected faults, and the mapping of every failure to a JSON body with a
 * `message`. Nothing a client sends may crash the process: every path ends in an answer or a
 * destroyed socket.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ApiError } from './api-error'
import { apiKeyRefused, notLoggedIn, type ApiAnswer, type createApiRoutes } from './api-routes'
import type { Auth } from './auth'
import type { ControlAnswer, createControlRoutes } from './control-http'
import type { Faults } from './faults'
import { FieldError, isObject, type Body } from './fields'
import { declaresBody, refuseRequest, refuseWithoutSecret } from './request-guard'
import type { RequestCounter } from './request-counter'
import type { Scheduler } from './scheduler'

export const API_PREFIX = '/api'
export const CONTROL_PREFIX = '/__emulator'
/** Bodies over 1 MiB are refused before they are buffered. */
export const MAX_BODY_BYTES = 1024 * 1024

type Handler = (request: IncomingMessage, response: ServerResponse) => void

export interface ApiHandlerDeps {
  auth: Auth
  api: ReturnType<typeof createApiRoutes>
  faults: Faults
  scheduler: Scheduler
  counter: RequestCounter
  /** This listener's `127.0.0.1:<port>`, once it listens. */
  ownHost: () => string
  /** Where the control plane answers, for a client that looks for it here. */
  controlUrl: () => string
  log: (line: string) => void
}

export interface ControlHandlerDeps {
  routes: ReturnType<typeof createControlRoutes>
  /** `Authorization: Bearer <secret>` must carry this. */
  secret: string
  ownHost: () => string
  log: (line: string) => void
}

class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string
  ) {
    super(message)
  }
}

export function createApiHandler(deps: ApiHandlerDeps): Handler {
  return guarded(deps, (request, response) => handle(deps, request, response))
}

export function createControlHandler(deps: ControlHandlerDeps): Handler {
  return guarded(deps, (request, response) => handleControl(deps, request, response))
}

/** The checks both listeners make first (request-guard.ts), and a 500 for anything unexpected. */
function guarded(
  deps: { ownHost: () => string; log: (line: string) => void },
  inner: (request: IncomingMessage, response: ServerResponse) => Promise<void>
): Handler {
  return (request, response) => {
    const refusal = refuseRequest(
      {
        host: request.headers.host,
        origin: request.headers.origin,
        contentType: request.headers['content-type'],
        hasBody: declaresBody(request.headers)
      },
      deps.ownHost()
    )
    if (refusal) return refuse(request, response, refusal)
    inner(request, response).catch((error: unknown) => {
      deps.log(`internal error on ${request.method} ${request.url}: ${(error as Error)?.stack ?? String(error)}`)
      send(response, 500, { message: 'The emulator hit an internal error; its log says more. Try again.' })
    })
  }
}

/** Answers a refused request without reading its body, and closes the connection after. */
function refuse(
  request: IncomingMessage,
  response: ServerResponse,
  refusal: { status: number; message: string },
  headers: Record<string, string> = {}
): void {
  request.resume()
  send(response, refusal.status, { message: refusal.message }, { connection: 'close', ...headers })
}

async function handle(deps: ApiHandlerDeps, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname

  if (isControlPath(path)) {
    return send(response, 404, { message: `The control routes are served at ${deps.controlUrl()}/, with the control secret.` })
  }
  if (!path.startsWith(`${API_PREFIX}/`)) {
    return send(response, 404, { message: `Nothing is served at ${clip(path)}. The API is under ${API_PREFIX}/.` })
  }

  const route = path.slice(API_PREFIX.length)
  const get = deps.api.gets.get(route)
  const known = route === '/user/login' || deps.api.authed.has(route) || get !== undefined
  deps.counter.count(known ? route : undefined)
  const fault = deps.faults.take(route)
  if (deps.faults.latencyMs > 0) await delay(deps.faults.latencyMs)
  if (fault.kind === 'drop') {
    request.socket.destroy()
    return
  }
  if (fault.kind === 'fail') {
    return send(response, fault.status, { message: 'The service is temporarily unavailable. Try again in a moment.' })
  }

  if (!known) return send(response, 404, { message: `Unknown API endpoint ${clip(path)}.` })
  const method = get ? 'GET' : 'POST'
  if (request.method !== method) {
    return send(response, 405, { message: `${clip(path)} only answers ${method}.` }, { allow: method })
  }
  if (fault.kind === 'redirect') {
    request.resume()
    return send(response, fault.status, { message: `Moved to ${fault.location}.` }, { location: fault.location })
  }

  try {
    deps.scheduler.runDue()
    if (route === '/user/login') {
      const answer = await deps.api.login(await readJsonObject(request))
      return sendAnswer(response, answer)
    }
    const user = authenticate(deps.auth, request)
    const handler = get ?? deps.api.authed.get(route)!
    const body = get ? {} : await readJsonObject(request)
    const answer = await handler(body, user.username)
    if (fault.kind === 'lose-answer') {
      request.socket.destroy()
      return
    }
    return send(response, 200, answer)
  } catch (error) {
    return sendError(deps, request, response, error)
  }
}

async function handleControl(deps: ControlHandlerDeps, request: IncomingMessage, response: ServerResponse): Promise<void> {
  // The listener is bound to 127.0.0.1, so this holds already; checked again because control
  // can rewrite any account's state and must never become reachable by a config slip.
  const remote = request.socket.remoteAddress ?? ''
  if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(remote)) {
    return send(response, 403, { message: 'The control surface answers loopback clients only.' })
  }
  // Every control route, even the index, needs the secret: control registers SSH keys, and an
  // SSH key is a shell as the user running the emulator.
  const unauthorized = refuseWithoutSecret(request.headers.authorization, deps.secret)
  if (unauthorized) return refuse(request, response, unauthorized, { 'www-authenticate': 'Bearer realm="cloud emulator control"' })
  const url = new URL(request.url ?? '/', 'http://127.0.0.1')
  if (!isControlPath(url.pathname)) {
    return send(response, 404, { message: `Only the control routes are served here, under ${CONTROL_PREFIX}/.` })
  }
  const route = url.pathname.slice(CONTROL_PREFIX.length) || '/'
  const query = url.searchParams
  const handler = deps.routes.get(`${request.method} ${route}`)
  if (!handler) {
    const other = deps.routes.has(`${request.method === 'GET' ? 'POST' : 'GET'} ${route}`)
    return other
      ? send(response, 405, { message: `${CONTROL_PREFIX}${clip(route)} does not answer ${request.method}.` })
      : send(response, 404, { message: `Unknown control route ${CONTROL_PREFIX}${clip(route)}.` })
  }
  try {
    const body = request.method === 'POST' ? await readJsonObject(request, { emptyIsObject: true }) : {}
    const answer: ControlAnswer = await handler(body, query)
    send(response, answer.status, answer.body)
    if (answer.after) response.once('finish', answer.after)
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError) return send(response, 400, { message: error.message })
    return sendError(deps, request, response, error)
  }
}

/**
 * The caller: a console API key (`X-API-Key`, as the real service takes it on every call but
 * login) wins over the AccessToken cookie, so a refused key is never rescued by a cookie.
 */
function authenticate(auth: Auth, request: IncomingMessage): { username: string } {
  const key = request.headers['x-api-key']
  if (key !== undefined) {
    const user = typeof key === 'string' ? auth.verifyApiKey(key.trim()) : undefined
    if (!user) throw apiKeyRefused()
    return user
  }
  const token = readCookie(request.headers.cookie, 'AccessToken')
  const user = token ? auth.verify(token) : undefined
  if (!user) throw notLoggedIn(Boolean(token))
  return user
}

function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)
}

function sendError(deps: { log: (line: string) => void }, request: IncomingMessage, response: ServerResponse, error: unknown): void {
  if (error instanceof ApiError) return send(response, error.status, error.body)
  if (error instanceof FieldError) return send(response, 400, { message: error.message })
  if (error instanceof BodyError) {
    send(response, error.status, { message: error.message }, error.status === 413 ? { connection: 'close' } : {})
    return
  }
  deps.log(`internal error on ${request.method} ${request.url}: ${(error as Error)?.stack ?? String(error)}`)
  send(response, 500, { message: 'The emulator hit an internal error; its log says more. Try again.' })
}

/** Reads at most MAX_BODY_BYTES and parses a JSON object; an empty body is not one (except for control). */
async function readJsonObject(request: IncomingMessage, options: { emptyIsObject?: boolean } = {}): Promise<Body> {
  const declared = Number(request.headers['content-length'])
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw tooLarge(request)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw tooLarge(request)
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (text.trim() === '') {
    if (options.emptyIsObject) return {}
    throw new BodyError(400, 'The request body is empty; send a JSON object.')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new BodyError(400, 'The request body is not valid JSON; send a JSON object.')
  }
  if (!isObject(value)) throw new BodyError(400, 'The request body must be a JSON object.')
  return value
}

function tooLarge(request: IncomingMessage): BodyError {
  // Stop reading: the rest of the body is not wanted, and the connection closes after the answer.
  request.pause()
  return new BodyError(413, `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB.`)
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const index = part.indexOf('=')
    if (index < 0) continue
    if (part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim()
      return value === '' ? undefined : value
    }
  }
  return undefined
}

function sendAnswer(response: ServerResponse, answer: ApiAnswer): void {
  send(response, answer.status, answer.body, answer.headers)
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent || response.destroyed) return
  const text = JSON.stringify(body)
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers
  })
  response.end(text)
}

function delay(ms: number): Promise<void> {
  // Real time on purpose: latency stands for the network, and the client's timeouts are real.
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}
