/**
 * What every request to the emulator's HTTP listeners (the API and the control plane) must show
 * before anything else looks at it, so that a web page in the user's browser cannot drive the
 * emulator (issue #12 item 1):
 * - Host is exactly the listener's own `127.0.0.1:<port>`: a page on another name that resolves
 *   to 127.0.0.1 (DNS rebinding) is refused;
 * - Origin is absent (curl, the app's main process, tests) or the listener's own origin: any
 *   other page's request is refused, even the "simple" ones a browser sends without a preflight;
 * - a body, when there is one, is declared `application/json`: the types a page may send without
 *   a CORS preflight (text/plain, forms, none at all) never reach a route.
 * Pure: the header values in, a refusal (status and message) or undefined out.
 */
// The web shell's constant-time comparison: one home for how a secret is checked.
import { secretsMatch } from '../shared/node/secret'

export interface GuardedRequest {
  host: string | undefined
  origin: string | undefined
  contentType: string | undefined
  /** The request declares a body: a non-zero Content-Length, or Transfer-Encoding. */
  hasBody: boolean
}

export interface Refusal {
  status: number
  message: string
}

/** `ownHost` is the listener's `127.0.0.1:<port>`. */
export function refuseRequest(request: GuardedRequest, ownHost: string): Refusal | undefined {
  if (request.host !== ownHost) {
    return {
      status: 403,
      message: `This emulator answers only requests addressed to http://${ownHost} (the Host header was ${describe(request.host)}).`
    }
  }
  if (request.origin !== undefined && request.origin !== `http://${ownHost}`) {
    return {
      status: 403,
      message: `Requests from web pages of another origin are refused (Origin ${describe(request.origin)}). Call the emulator from curl or a program instead.`
    }
  }
  if (request.hasBody && !isJsonMediaType(request.contentType)) {
    return {
      status: 415,
      message: `Send the request body as JSON with "Content-Type: application/json" (it was ${describe(request.contentType)}).`
    }
  }
  return undefined
}

/** `application/json`, with or without parameters such as `; charset=utf-8`, in any case. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false
  return contentType.split(';', 1)[0]!.trim().toLowerCase() === 'application/json'
}

/** Whether the request headers announce a body (Content-Length above 0, or a Transfer-Encoding). */
export function declaresBody(headers: { 'content-length'?: string | undefined; 'transfer-encoding'?: string | undefined }): boolean {
  if (headers['transfer-encoding'] !== undefined) return true
  const length = headers['content-length']
  return length !== undefined && length.trim() !== '0'
}

function describe(value: string | undefined): string {
  if (value === undefined) return 'missing'
  const clipped = value.length > 80 ? `${value.slice(0, 77)}...` : value
  return `"${clipped}"`
}

/**
 * The control plane's check: `Authorization: Bearer <secret>`, compared in constant time. Answers
 * the refusal, or undefined when the secret matches.
 */
export function refuseWithoutSecret(authorization: string | undefined, secret: string): Refusal | undefined {
  const offered = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1]
  if (offered !== undefined && secretsMatch(offered, secret)) return undefined
  return {
    status: 401,
    message:
      (offered === undefined ? 'The control routes need the control secret' : 'That control secret is wrong') +
      ': send "Authorization: Bearer <secret>". `npm run emulator` prints it; the app and `npm run web` write it to the file control-secret in the Sandbox folder of their data folder.'
  }
}
