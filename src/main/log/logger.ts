/**
 * The main process's log: one JSON object per line in `<dataDir>/logs/main.log`, rotated by size,
 * every line redacted before it is written (redact.ts). JSON lines so a bug report can be read by
 * eye and filtered by tool; a `scope` per capability (watch, ssh, account, …) via `child()`.
 *
 *   const log = createLogger({ dir: join(dataDir, 'logs') })
 *   log.secrets.add(token)               // on login; log.secrets.delete(token) on logout
 *   const watchLog = log.child('watch')
 *   watchLog.warn('poll failed', { error, attempt })
 *   log.close()                          // on quit
 */
import type { Clock } from '../../shared/clock'
import { openRotatingFile, type RotatingFile } from './rotating-file'
import { redactText, redactValue, SecretSet } from './redact'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface Logger {
  debug(message: string, data?: unknown): void
  info(message: string, data?: unknown): void
  warn(message: string, data?: unknown): void
  error(message: string, data?: unknown): void
  /** The same log, with every line tagged `scope`. */
  child(scope: string): Logger
  /** Exact secret values to scrub from every line (the token, a password being tried). */
  readonly secrets: SecretSet
  /** Path of the current file (for "Show logs" in Settings and for tests). */
  readonly path: string
  /** All files of this log, newest first. */
  files(): string[]
  close(): void
}

export interface LoggerOptions {
  /** The folder for the log files, e.g. join(dataDir, 'logs'). Created 0700 if missing. */
  dir: string
  fileName?: string
  /** Lowest level written. Default 'info'. */
  level?: LogLevel
  maxBytes?: number
  keep?: number
  clock?: Pick<Clock, 'now'>
  /** Share one SecretSet between loggers (e.g. the web shell's and the core's). */
  secrets?: SecretSet
  /** Also mirror warn/error lines (already redacted) here, e.g. console.error in development. */
  mirror?: (line: string) => void
}

export interface LogLine {
  time: string
  level: LogLevel
  scope?: string
  message: string
  data?: unknown
}

export function createLogger(options: LoggerOptions): Logger {
  const file: RotatingFile = openRotatingFile({
    dir: options.dir,
    ...(options.fileName !== undefined ? { fileName: options.fileName } : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.keep !== undefined ? { keep: options.keep } : {})
  })
  const secrets = options.secrets ?? new SecretSet()
  const minimum = RANK[options.level ?? 'info']
  const now = (): number => (options.clock ? options.clock.now() : Date.now())

  const write = (level: LogLevel, scope: string | undefined, message: string, data: unknown): void => {
    if (RANK[level] < minimum) return
    const line: LogLine = {
      time: new Date(now()).toISOString(),
      level,
      ...(scope ? { scope } : {}),
      message: redactText(String(message), secrets)
    }
    if (data !== undefined) line.data = redactValue(data, secrets)
    let text: string
    try {
      text = JSON.stringify(line)
    } catch {
      text = JSON.stringify({ ...line, data: '[unserialisable]' })
    }
    try {
      file.write(text)
    } catch {
      // A full disk or a removed folder must not take the app down with it; the mirror (if any)
      // still sees the line.
    }
    if (options.mirror && RANK[level] >= RANK.warn) options.mirror(text)
  }

  const make = (scope: string | undefined): Logger => ({
    debug: (message, data) => write('debug', scope, message, data),
    info: (message, data) => write('info', scope, message, data),
    warn: (message, data) => write('warn', scope, message, data),
    error: (message, data) => write('error', scope, message, data),
    child: (name) => make(scope ? `${scope}.${name}` : name),
    secrets,
    path: file.path,
    files: () => file.files(),
    close: () => file.close()
  })
  return make(undefined)
}
