/**
 * The main-process log. For the core (core.ts), once at start:
 *
 *   import { createLogger, logDirFor } from './log'
 *   const log = createLogger({ dir: logDirFor(options.dataDir) })
 *   // on login / re-login: log.secrets.add(token); on logout or expiry: log.secrets.delete(token)
 *   // per capability: const watchLog = log.child('watch')
 *   // in stop(): log.close()
 *
 * Every line is redacted before it is written (redact.ts), so passing an error or a request
 * object is safe; registering the token makes even an opaque (non-JWT) token disappear.
 */
import { join } from 'node:path'

export { createLogger, type Logger, type LoggerOptions, type LogLevel, type LogLine } from './logger'
export { REDACTED, SecretSet, redactText, redactValue } from './redact'
// scan.ts is a test and command-line tool (it has a CLI entry), deliberately not exported here:
// bundled into the main process, its entry check could match the bundle's own path.

/** `<dataDir>/logs`: where the main-process log lives (and what "Show logs" should open). */
export function logDirFor(dataDir: string): string {
  return join(dataDir, 'logs')
}
