/** Any thrown value → the plain error a Result carries. Unknown errors become `internal`. */
import type { ErrorInfo } from '../shared/errors'
import { AppError, FailedResult } from './app-error'
import { isCloudError } from './cloud/errors'

export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof AppError) return error.toInfo()
  if (error instanceof FailedResult) return error.info
  if (isCloudError(error)) return error.toInfo()
  const message = error instanceof Error ? error.message : String(error)
  return {
    kind: 'internal',
    message: `Something went wrong inside Cloud Tray (${message}). Try again; if it keeps happening, restart Cloud Tray.`
  }
}
