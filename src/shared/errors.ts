/**
 * Errors as data. Electron IPC drops error classes, so every failure that crosses a process
 * boundary is this plain object and the renderer switches on `kind`.
 */

/** The kinds a cloud call can fail with (see src/main/cloud/errors.ts for CloudError). */
export const CLOUD_ERROR_KINDS = [
  'not-logged-in',
  'bad-credentials',
  'invalid-request',
  'already-exists',
  'not-found',
  'network',
  'server',
  'unexpected-response'
] as const
export type CloudErrorKind = (typeof CLOUD_ERROR_KINDS)[number]

/** The app's own kinds, for failures that are not the cloud's. */
export const APP_ERROR_KINDS = [
  /** The command's input did not match the contract. */
  'bad-input',
  /** The command needs a session and there is none. */
  'no-session',
  /** The OS keychain could not be reached; the session is kept in memory only. */
  'keychain-unavailable',
  /** Something the user asked for is not possible in the current state (e.g. stop a stopped instance). */
  'not-allowed',
  /** The user cancelled a prompt (host key, passphrase). */
  'cancelled',
  /** SSH: connection, authentication or host-key failure. */
  'ssh',
  /** A local file could not be read or written. */
  'io',
  /**
   * A create's outcome is unknown, and an instance exists that may or may not be its result
   * (`instanceId`): the user chooses to open it or to create anyway.
   */
  'maybe-created',
  /** What was asked for is out of stock in every region it may go (a template's launch): a watch can wait for it. */
  'out-of-stock',
  /** A bug: something that should not happen. The message says what. */
  'internal'
] as const
export type AppErrorKind = (typeof APP_ERROR_KINDS)[number]

export type ErrorKind = CloudErrorKind | AppErrorKind

/** One field a refusal names: its dotted path, and the cloud's own words about it (untrusted text). */
export interface FieldProblem {
  field: string
  said: string
}

export interface ErrorInfo {
  kind: ErrorKind
  /** A sentence for the user: what happened and what to do next. Never carries a token. */
  message: string
  /** For invalid-request / already-exists: the dotted path of the field at fault. */
  field?: string
  /**
   * For invalid-request: every field the cloud's answer names, each with what it said of it,
   * in the answer's order (`field` is the first). A form shows them all at once.
   */
  fields?: FieldProblem[]
  /** For bad-credentials: login attempts left before the account locks. */
  retriesLeft?: number
  /** For a locked account: when it unlocks (Unix ms), when the server says so. */
  lockedUntil?: number
  /** For maybe-created: the instance that may be this attempt's. */
  instanceId?: string
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo }

export function ok<T>(value: T): Result<T> {
  return { ok: true, value }
}

export function fail<T = never>(error: ErrorInfo): Result<T> {
  return { ok: false, error }
}
