/**
 * From an HTTP answer (or a failed exchange) to a typed value or a CloudError.
 *
 * The spec gives no HTTP status codes, so the documented error bodies are recognised by their
 * shape: `{code: -1}` is not-logged-in and `{code: 10008, values: {v0}}` bad credentials whatever
 * the status; a message-only body is read for what it says (a field, "already exists",
 * "not found"). Status codes only separate what the shapes leave open: a 5xx message-only body
 * is the server's fault, and any non-2xx answer that is not an error body is `server`.
 */
import type { z } from 'zod'
import { BAD_CREDENTIALS_CODE, ErrorBodySchema, NOT_LOGGED_IN_CODE, type ErrorBody } from '../../shared/api'
import { CloudError } from './errors'
import { serverLine } from '../../shared/untrusted-text'
import { fieldFromMessage, fieldProblemsFromMessage, instantIn, lockedUntilFromMessage, quotable, saysLocked } from './messages'

/** What a call was doing, for messages that say what went wrong in the user's words. */
export type CloudOperation =
  | 'login'
  | 'listInstances'
  | 'createInstance'
  | 'stopInstance'
  | 'terminateInstance'
  | 'createVolume'
  | 'listVolumes'
  | 'catalog'
  | 'balance'

export interface CallContext {
  operation: CloudOperation
  /** scheme://host:port of the profile, shown in network messages. */
  origin: string
  now: () => number
  /** What the call sent to prove who it is; absent: nothing (login). */
  credential?: 'token' | 'api-key'
  /** The proxy the call went through (`host:port`), and whether it was sent a user name and password. */
  proxy?: { hostPort: string; sentCredentials: boolean }
}

export interface HttpAnswer {
  status: number
  text: string
  /** The Date header, when the answer had one. */
  date?: string
  /** The Location header, when the answer had one (redirects). */
  location?: string
}

const WHAT: Record<CloudOperation, string> = {
  login: 'log in',
  listInstances: 'list your instances',
  createInstance: 'create the instance',
  stopInstance: 'stop the instance',
  terminateInstance: 'terminate the instance',
  createVolume: 'create the volume',
  listVolumes: 'list your volumes',
  catalog: 'read the instance types on offer',
  balance: 'read your balance'
}

const CREATES: ReadonlySet<CloudOperation> = new Set(['createInstance', 'createVolume'])

/** Parses and checks one answer. Returns the schema's value or throws a CloudError. */
export function interpretAnswer<T>(answer: HttpAnswer, schema: z.ZodType<T>, context: CallContext): T {
  const success = answer.status >= 200 && answer.status < 300
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch (cause) {
    if (!success) throw serverError(answer.status, undefined, context)
    throw unexpectedResponse(context, 'the answer is not JSON', answer.status, cause)
  }

  const error = ErrorBodySchema.safeParse(body)
  if (error.success && error.data.code === NOT_LOGGED_IN_CODE) throw notLoggedIn(answer.status, context)
  if (error.success && error.data.code === BAD_CREDENTIALS_CODE) {
    throw badCredentials(error.data, answer.status, context)
  }
  // The real service answers a missing or refused credential with a bare 401 ("Not logged in",
  // "User ID mismatch"; hpcai-api-facts.md 5): whatever the body, the credential was refused.
  if (answer.status === 401 && context.credential !== undefined) throw notLoggedIn(answer.status, context)

  let shapeProblem: unknown
  if (success) {
    const parsed = schema.safeParse(body)
    if (parsed.success) return parsed.data
    shapeProblem = parsed.error
  }
  if (error.success) throw fromMessageBody(error.data, answer.status, context)
  if (!success) throw serverError(answer.status, undefined, context)
  throw unexpectedResponse(context, 'the answer does not have the documented shape', answer.status, shapeProblem)
}

function notLoggedIn(status: number, context: CallContext): CloudError {
  if (context.credential === 'api-key') {
    return new CloudError(
      'not-logged-in',
      'The cloud refused your API key: it may have been deleted or replaced. Make a new key in the HPC-AI console, then sign in with it.',
      { status }
    )
  }
  return new CloudError('not-logged-in', 'You are not logged in, or your login has expired. Log in again to continue.', { status })
}

function badCredentials(body: ErrorBody, status: number, context: CallContext): CloudError {
  const v0 = body.values?.['v0']
  // v0 is a string of digits per the spec; anything else means "unknown", never NaN or 0.
  const parsedRetries = typeof v0 === 'number' ? v0 : typeof v0 === 'string' && /^\s*\d+\s*$/.test(v0) ? Number(v0) : Number.NaN
  const retriesLeft = Number.isInteger(parsedRetries) && parsedRetries >= 0 ? parsedRetries : undefined
  const lockedUntil = lockedUntilFrom(body, context.now())
  // "N tries left before the account is locked" mentions locking too: only 0 retries can mean locked.
  const locked = lockedUntil !== undefined || ((retriesLeft ?? 0) === 0 && saysLocked(body.message))
  const options = {
    status,
    ...(retriesLeft !== undefined ? { retriesLeft } : {}),
    ...(lockedUntil !== undefined ? { lockedUntil } : {})
  }
  if (locked) {
    const until =
      lockedUntil !== undefined ? `until ${formatInstant(lockedUntil)}` : `for a while (the cloud said: "${quotable(body.message)}")`
    return new CloudError(
      'bad-credentials',
      `This account is locked after too many failed logins, ${until}. Wait, then log in again with the correct password.`,
      options
    )
  }
  const attempts =
    retriesLeft === undefined
      ? ''
      : retriesLeft === 0
        ? ' No attempts are left before the account is locked.'
        : ` ${retriesLeft} ${retriesLeft === 1 ? 'attempt is' : 'attempts are'} left before the account is locked.`
  return new CloudError('bad-credentials', `The user name or password is incorrect.${attempts} Check them and try again.`, options)
}

/**
 * The unlock instant: an ISO instant among the body's values (the emulator puts it in `v1`),
 * else whatever the message says.
 */
function lockedUntilFrom(body: ErrorBody, now: number): number | undefined {
  for (const value of Object.values(body.values ?? {})) {
    if (typeof value !== 'string') continue
    const at = instantIn(value)
    if (at !== undefined) return at
  }
  return lockedUntilFromMessage(body.message, now)
}

function fromMessageBody(body: ErrorBody, status: number, context: CallContext): CloudError {
  const said = quotable(body.message)
  const field = fieldFromMessage(body.message)
  if (/already exists?/i.test(body.message)) {
    const at = field ?? (CREATES.has(context.operation) ? 'name' : undefined)
    return new CloudError(
      'already-exists',
      `Could not ${WHAT[context.operation]}: the cloud says "${said}". Choose a different name and try again.`,
      { status, ...(at !== undefined ? { field: at } : {}) }
    )
  }
  if (field === undefined && /\bnot found\b|does not exist|no such/i.test(body.message)) {
    return new CloudError(
      'not-found',
      `Could not ${WHAT[context.operation]}: the cloud says "${said}". It may have been removed meanwhile; refresh the list and try again.`,
      { status }
    )
  }
  if (field === undefined && status >= 500) return serverError(status, said, context)
  const fields = fieldProblemsFromMessage(body.message)
  const named = fields.length > 1 ? fields.map((problem) => `"${problem.field}"`).join(', ') : undefined
  const fix = named
    ? ` Check the fields ${named} and try again.`
    : field !== undefined
      ? ` Check the field "${field}" and try again.`
      : ' Check what you entered and try again.'
  return new CloudError('invalid-request', `Could not ${WHAT[context.operation]}: the cloud says "${said}".${fix}`, {
    status,
    ...(field !== undefined ? { field } : {}),
    ...(fields.length > 0 ? { fields } : {})
  })
}

function serverError(status: number, said: string | undefined, context: CallContext): CloudError {
  const quote = said ? ` ("${said}")` : ''
  return new CloudError(
    'server',
    `Could not ${WHAT[context.operation]}: the cloud answered with an error (HTTP ${status})${quote}. Try again in a moment; if it keeps happening, the service may be down.`,
    { status }
  )
}

function unexpectedResponse(context: CallContext, what: string, status: number | undefined, cause?: unknown): CloudError {
  return new CloudError(
    'unexpected-response',
    `Could not ${WHAT[context.operation]}: ${context.origin} sent an answer Cloud Tray does not understand (${what}). Check that the profile's address points at the cloud API (for example https://hpc-ai.com/api).`,
    { ...(status !== undefined ? { status } : {}), ...(cause !== undefined ? { cause } : {}) }
  )
}

/** The answer was bigger than any real list could be: refuse it rather than exhaust memory. */
export function answerTooLarge(context: CallContext, status: number, limitBytes: number): CloudError {
  return unexpectedResponse(context, `the answer is larger than ${Math.round(limitBytes / 1048576)} MiB`, status)
}

/** Certificate and TLS handshake failures (the request was never sent). */
export const TLS_CODES: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO'
])

/** The error code of a failed exchange: on the error, its cause, or the first of an AggregateError. */
export function errorCode(error: unknown): string | undefined {
  const seen = new Set<unknown>()
  let current: unknown = error
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current)
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && code !== 'UND_ERR') return code
    const inner = (current as { errors?: unknown }).errors
    if (Array.isArray(inner) && inner.length > 0) {
      current = inner[0]
      continue
    }
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/**
 * A failed exchange (no usable HTTP answer) as a CloudError. Socket, DNS, timeout and TLS
 * failures are `network`; an answer that is not HTTP at all is `unexpected-response`.
 */
export function exchangeFailure(error: unknown, context: CallContext): CloudError {
  const code = errorCode(error)
  const { origin } = context
  const host = hostOf(origin)
  const options = { cause: error }
  if (context.proxy && isProxyAuthRefusal(error)) return proxyAuthRequired(context.proxy, context, error)
  if (code?.startsWith('HPE_') || isParserError(error)) {
    return unexpectedResponse(context, 'the answer is not valid HTTP', undefined, error)
  }
  switch (code) {
    case 'ECONNREFUSED':
      return new CloudError(
        'network',
        `Could not reach ${origin}: nothing answered there (connection refused). Check the profile's address, and that the service is running.`,
        options
      )
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      return new CloudError(
        'network',
        `Could not reach ${origin}: the name ${host} could not be resolved. Check your network connection or the profile's address.`,
        options
      )
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return new CloudError(
        'network',
        `Could not reach ${origin}: the connection timed out. Check your network connection or the profile's address.`,
        options
      )
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return new CloudError(
        'network',
        `${origin} stopped answering before the reply was complete (timed out). Check your network connection and try again.`,
        options
      )
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
    case 'ECONNABORTED':
      return new CloudError(
        'network',
        `The connection to ${origin} was cut off before the answer arrived. Check your network connection and try again.`,
        options
      )
    default:
      if (code !== undefined && TLS_CODES.has(code)) {
        return new CloudError(
          'network',
          `Could not verify that ${origin} is the cloud it claims to be (its TLS certificate is not trusted: ${code}). Check the profile's address; do not continue on an untrusted network.`,
          options
        )
      }
      return new CloudError('network', `Could not reach ${origin} — check your network or the profile's address.`, options)
  }
}

/**
 * The proxy answered 407 Proxy Authentication Required. undici says so only in words: a CONNECT
 * refused is "Proxy response (407) !== 200 when HTTP Tunneling" (RequestAbortedError), a plain
 * proxied request "Proxy Authentication Required (407)"; looked for along the causes.
 */
export function isProxyAuthRefusal(error: unknown): boolean {
  const seen = new Set<unknown>()
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current)
    if (/Proxy response \(407\)|Proxy Authentication Required \(407\)/.test(current.message)) return true
  }
  return false
}

/**
 * Network, as the request never reached the cloud; its own words, as only a user name and
 * password help. The proxy's address comes from system settings, a PAC file or the environment:
 * shown as one bounded visible line.
 */
function proxyAuthRequired(proxy: { hostPort: string; sentCredentials: boolean }, context: CallContext, cause: unknown): CloudError {
  const named = `the proxy "${serverLine(proxy.hostPort, 120)}"`
  const what = proxy.sentCredentials
    ? `${named} did not accept the user name and password Cloud Tray gave it`
    : `${named} asks for a user name and password`
  return new CloudError(
    'network',
    `Could not ${WHAT[context.operation]}: ${what}. Enter your proxy user name and password when Cloud Tray asks for them (your network administrator can tell you which); Cloud Tray then tries again by itself.`,
    { cause }
  )
}

/** undici's HTTPParserError carries no code for some malformed answers; its name is stable. */
function isParserError(error: unknown): boolean {
  return error instanceof Error && error.name === 'HTTPParserError'
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).hostname
  } catch {
    return origin
  }
}

function formatInstant(ms: number): string {
  // Local time: the person reading it is at this machine. The renderer may format lockedUntil itself.
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}
