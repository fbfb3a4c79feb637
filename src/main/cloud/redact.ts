/**
 * The access token must never reach a message, log or error. Our own messages never include it,
 * but a server message we quote could echo it, and a low-level cause could carry it. This is the
 * last step before any CloudError leaves the client.
 */
import { withoutSecret } from '../log/redact'
import { CloudError } from './errors'

/** `text` with every occurrence of `secret` replaced. Secrets shorter than 8 characters are not real tokens. */
export function redactToken(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 8) return text
  return withoutSecret(text, secret)
}

function mentions(value: unknown, secret: string): boolean {
  try {
    if (value instanceof Error) {
      return `${value.message}\n${value.stack ?? ''}`.includes(secret) || mentions(value.cause, secret)
    }
    return (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).includes(secret)
  } catch {
    // Not serialisable (a cycle): keep it only if we can show it is clean, which we cannot.
    return true
  }
}

/** The same error with the token removed from its message; a cause that mentions it is dropped. */
export function redactError(error: CloudError, secret: string | undefined): CloudError {
  if (!secret || secret.length < 8) return error
  const dirtyMessage = error.message.includes(secret)
  const dirtyCause = error.cause !== undefined && mentions(error.cause, secret)
  if (!dirtyMessage && !dirtyCause) return error
  return new CloudError(error.kind, redactToken(error.message, secret), {
    ...(error.field !== undefined ? { field: redactToken(error.field, secret) } : {}),
    ...(error.retriesLeft !== undefined ? { retriesLeft: error.retriesLeft } : {}),
    ...(error.lockedUntil !== undefined ? { lockedUntil: error.lockedUntil } : {}),
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(dirtyCause ? {} : { cause: error.cause })
  })
}
