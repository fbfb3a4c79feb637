/**
 * A process with the guard installed, for process-guard.test.ts: a promise nobody awaits fails,
 * a socket error escapes, and (with `fatal` as the argument) a plain TypeError is thrown from a
 * timer. It prints what it lived through and exits 0, or 70 where the guard ends it.
 */
import { installProcessGuard } from '../process-guard'

installProcessGuard({
  log: { warn: (message) => console.log(`warn: ${message}`), error: (message) => console.log(`error: ${message}`) },
  fatal: () => process.exit(70)
})
void Promise.reject(new Error('nobody waits for this'))
setTimeout(() => {
  throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
}, 5)
setTimeout(() => {
  if (process.argv[2] === 'fatal') throw new TypeError('Cannot read properties of undefined')
}, 20)
setTimeout(() => {
  console.log('alive')
  process.exit(0)
}, 60)
