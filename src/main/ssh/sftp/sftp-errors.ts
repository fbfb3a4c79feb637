/**
 * SFTP failures in the user's words: what happened to which file and what to do. The server's
 * status codes say little (OpenSSH's sftp-server reports a full disk as a plain "Failure"), so a
 * failed write asks how much space is left before it decides what to say.
 */
import { formatBytes } from '../../../shared/format-bytes'
import { serverLine } from '../../../shared/untrusted-text'
import { AppError } from '../../app-error'
import { FAILURE, NO_SUCH_FILE, PERMISSION_DENIED } from './sftp-client'

export type SftpAction = 'read' | 'write' | 'list' | 'create' | 'rename' | 'delete'

const VERB: Record<SftpAction, string> = {
  read: 'read',
  write: 'write in',
  list: 'open',
  create: 'create',
  rename: 'rename',
  delete: 'delete'
}

export interface SftpFailureContext {
  action: SftpAction
  /** The file or folder the user acted on, as they would recognise it. */
  path: string
  /** For writes: free bytes on the disk just after the failure, if the server could say. */
  freeBytes?: number
  /** For writes: bytes still to be written when it failed. */
  remainingBytes?: number
}

/** The AppError a user sees for an SFTP failure; a connection lost on the way says so. */
export function sftpFailure(error: unknown, context: SftpFailureContext): AppError {
  const code = (error as { code?: unknown }).code
  // The server's own words: one line of it, visible and short (a server decides what it says).
  const server = serverLine((error as Error)?.message?.replace(/^\(SSH\) /, '') ?? String(error), 300)
  const where = `“${context.path}”`
  if (
    context.action === 'write' &&
    context.freeBytes !== undefined &&
    context.freeBytes < Math.max(1, context.remainingBytes ?? 1) + 64 * 1024
  ) {
    return new AppError(
      'io',
      `The instance's disk is full: ${formatBytes(context.freeBytes)} left where ${where} was going. Free some space on the instance (or choose a folder on a larger disk) and try again. Nothing was left under the final name.`
    )
  }
  if (code === PERMISSION_DENIED) {
    return new AppError(
      'io',
      `You may not ${VERB[context.action]} ${where} on the instance (permission denied). Choose a folder you own, such as your home folder.`
    )
  }
  if (code === NO_SUCH_FILE) {
    return new AppError('io', `${where} is not there (anymore). Refresh the folder and try again.`)
  }
  if (isConnectionLoss(error)) {
    return new AppError('ssh', `The connection to the instance was lost while working on ${where}. Try again once it has reconnected.`)
  }
  if (code === FAILURE && context.action === 'write') {
    return new AppError(
      'io',
      `The instance could not write ${where} (the server said: ${server}). Check the free space and permissions there, then try again.`
    )
  }
  return new AppError('io', `Could not ${VERB[context.action]} ${where} on the instance: ${server}.`)
}

export function isConnectionLoss(error: unknown): boolean {
  const message = (error as Error)?.message ?? ''
  return (
    /No response from server|Channel closed|connection lost|not connected|No SFTP/i.test(message) ||
    [6, 7].includes((error as { code?: number }).code ?? -1)
  )
}
