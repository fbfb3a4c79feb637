/**
 * The one error class every cloud call rejects with. Callers switch on `kind` (the taxonomy of
 * src/shared/errors.ts) and show `message`, which is written for the user and never carries the
 * access token. `toInfo()` is the plain object that crosses IPC (classes do not survive it).
 */
import type { CloudErrorKind, ErrorInfo, FieldProblem } from '../../shared/errors'

export interface CloudErrorOptions {
  /** invalid-request / already-exists: the dotted path of the field at fault. */
  field?: string
  /** invalid-request: every field the answer names, with what it said of each (when it names more than one). */
  fields?: FieldProblem[]
  /** bad-credentials: login attempts left before the account locks. */
  retriesLeft?: number
  /** A locked account: when it unlocks (Unix ms), when the server says so. */
  lockedUntil?: number
  /** HTTP status of the answer, when there was one (for logs and diagnostics, not for users). */
  status?: number
  /** The underlying error (a socket error, a zod issue list). Never holds request headers. */
  cause?: unknown
}

export class CloudError extends Error {
  readonly kind: CloudErrorKind
  readonly field?: string
  readonly fields?: FieldProblem[]
  readonly retriesLeft?: number
  readonly lockedUntil?: number
  readonly status?: number

  constructor(kind: CloudErrorKind, message: string, options: CloudErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'CloudError'
    this.kind = kind
    if (options.field !== undefined) this.field = options.field
    if (options.fields !== undefined) this.fields = options.fields
    if (options.retriesLeft !== undefined) this.retriesLeft = options.retriesLeft
    if (options.lockedUntil !== undefined) this.lockedUntil = options.lockedUntil
    if (options.status !== undefined) this.status = options.status
  }

  /** The plain-data form for Result errors and IPC: kind, message and the optional details only. */
  toInfo(): ErrorInfo {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.field !== undefined ? { field: this.field } : {}),
      ...(this.fields !== undefined ? { fields: this.fields } : {}),
      ...(this.retriesLeft !== undefined ? { retriesLeft: this.retriesLeft } : {}),
      ...(this.lockedUntil !== undefined ? { lockedUntil: this.lockedUntil } : {})
    }
  }
}

/**
 * True for CloudError instances. Also accepts a CloudError from another copy of this module
 * (bundlers can duplicate it), recognised by name and a string kind.
 */
export function isCloudError(value: unknown): value is CloudError {
  if (value instanceof CloudError) return true
  return value instanceof Error && value.name === 'CloudError' && typeof (value as { kind?: unknown }).kind === 'string'
}
