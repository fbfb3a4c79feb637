/**
 * The last net under main (both shells: src/main/index.ts for Electron, src/web/cli.ts for
 * `npm run web`). Every part's listeners and timers already run under their own guard
 * (supervisor.ts), so what reaches the process comes from outside any part: a promise chain
 * nobody awaited, or a library's callback (a socket's 'error' with no listener). What is done
 * with it, and why that is safe:
 *
 * - An unhandled rejection is logged and the app goes on. A rejection unwinds nothing: the code
 *   that started the promise finished long ago, and the promise chain that failed simply has no
 *   one waiting for it. Ending the app for it would end the cost guard for every instance, which
 *   is the worse outcome for the user's money (#21).
 * - An uncaught exception from a connection (a socket or stream error with a system code such as
 *   ECONNRESET or EPIPE) is logged and the app goes on: the connection is dead, and nothing of
 *   ours was midway; its owner sees it close and reconnects.
 * - Any other uncaught exception is not safe to go on from (Node's own advice): it left a
 *   synchronous sequence of someone's half done, and we cannot know whose. It is logged, then
 *   the shell ends the app in its own way (`fatal`: the desktop app says so in an error box).
 *   The next start resumes the session and the cost guard's countdowns (they are on disk).
 */
import { errorData } from './supervisor'

/** System and stream codes of a connection that failed: its end, not ours. */
const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_SOCKET_CLOSED',
  'ERR_SSH_CHANNEL_CLOSED'
])

export interface ProcessGuardOptions {
  log: { warn(message: string, data?: unknown): void; error(message: string, data?: unknown): void }
  /** An uncaught exception it is not safe to go on from: the shell ends the app (after showing why). */
  fatal(error: unknown): void
  /** The process to guard (tests pass an EventEmitter). */
  target?: Pick<NodeJS.Process, 'on' | 'off'>
}

/** Whether going on after this uncaught exception is safe: a connection's own failure. */
export function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && CONNECTION_CODES.has(code)
}

/** Installs the handlers; answers a function that removes them. */
export function installProcessGuard(options: ProcessGuardOptions): () => void {
  const target = options.target ?? process
  const onRejection = (reason: unknown): void => {
    // Safe to go on: see above. Logged with its stack (redacted by the logger), never shown raw.
    options.log.warn('a promise failed with no one waiting for it; the app goes on', { error: errorData(reason) })
  }
  const onException = (error: unknown): void => {
    if (isConnectionFailure(error)) {
      options.log.warn('a connection failed outside any handler; the app goes on', { error: errorData(error) })
      return
    }
    options.log.error('an unexpected error reached the process; the app must end', { error: errorData(error) })
    options.fatal(error)
  }
  target.on('unhandledRejection', onRejection)
  target.on('uncaughtException', onException)
  return () => {
    target.off('unhandledRejection', onRejection)
    target.off('uncaughtException', onException)
  }
}
