/**
 * The app's own failures (not the cloud's): a kind from src/shared/errors.ts and a message for
 * the user. Command handlers throw it; the core turns it into a Result error.
 */
import type { AppErrorKind, ErrorInfo } from '../shared/errors'

export class AppError extends Error {
  readonly kind: AppErrorKind
  readonly field?: string
  readonly instanceId?: string

  constructor(kind: AppErrorKind, message: string, options?: { field?: string; cause?: unknown; instanceId?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AppError'
    this.kind = kind
    if (options?.field !== undefined) this.field = options.field
    if (options?.instanceId !== undefined) this.instanceId = options.instanceId
  }

  toInfo(): ErrorInfo {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.field ? { field: this.field } : {}),
      ...(this.instanceId ? { instanceId: this.instanceId } : {})
    }
  }
}

/** A failure another command already described (a Result's error), passed on as it was told. */
export class FailedResult extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message)
    this.name = 'FailedResult'
  }
}
