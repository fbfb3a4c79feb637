/**
 * The stand-in's side of the channel to the harness (inside the app's process): every recorded
 * call goes out as it happens, and requests from the harness run the operation registered under
 * their name. Recorded arguments are plain data: functions become "[function]", stand-in objects
 * describe themselves (`recordAs`), byte arrays stay bytes.
 */
import type { FromApp, Request, StandInOptions } from '../protocol'
import { OPTIONS_VARIABLE } from '../protocol'

export const options: StandInOptions = JSON.parse(process.env[OPTIONS_VARIABLE] ?? 'null') as StandInOptions
if (!options) throw new Error(`${OPTIONS_VARIABLE} is not set: the electron stand-in runs only under scripts/electron-stand-in/harness.ts`)

let seq = 0
const send = (message: FromApp): void => {
  if (process.connected) process.send?.(message)
}

/** Something that says how it is to be recorded (a window, a session, a menu, an image). */
export interface Recordable {
  recordAs(): unknown
}

const isRecordable = (value: unknown): value is Recordable =>
  typeof value === 'object' && value !== null && typeof (value as Partial<Recordable>).recordAs === 'function'

export function plain(value: unknown, depth = 0, seen = new Set<object>()): unknown {
  if (typeof value === 'function') return '[function]'
  if (value === null || typeof value !== 'object') return value
  if (value instanceof Uint8Array) return new Uint8Array(value)
  if (isRecordable(value)) return plain(value.recordAs(), depth + 1, seen)
  if (value instanceof Error) return { error: value.message }
  if (seen.has(value) || depth > 8) return '[…]'
  seen.add(value)
  const out: unknown = Array.isArray(value)
    ? value.map((item) => plain(item, depth + 1, seen))
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item, depth + 1, seen)]))
  seen.delete(value)
  return out
}

export function record(api: string, target: string | undefined, args: unknown[]): void {
  send({
    type: 'call',
    call: { seq: ++seq, at: Math.round(performance.now()), api, ...(target ? { target } : {}), args: args.map((a) => plain(a)) }
  })
}

type Operation = (...args: never[]) => unknown
const operations = new Map<string, Operation>()
/** Operations that only look (the harness polls them): not recorded, so the recording stays the app's. */
const looks = new Set<string>()

/** What the harness may ask for by name (see harness.ts for the typed side). */
export function operation(name: string, run: Operation, kind: 'acts' | 'looks' = 'acts'): void {
  operations.set(name, run)
  if (kind === 'looks') looks.add(name)
}

process.on('message', (message: Request) => {
  if (message?.type !== 'request') return
  const run = operations.get(message.op)
  void (async () => {
    try {
      if (!run) throw new Error(`the electron stand-in has no operation "${message.op}"`)
      if (!looks.has(message.op)) record(`harness.${message.op}`, undefined, message.args)
      const value = await run(...(message.args as never[]))
      send({ type: 'reply', id: message.id, ok: true, value: plain(value) })
    } catch (error) {
      send({ type: 'reply', id: message.id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
    }
  })()
})

/** Ends the process as Electron does after `quit`, once the harness has every recorded call. */
export function exitProcess(code: number): void {
  record('process.exit', undefined, [code])
  if (!process.connected) process.exit(code)
  // An empty message with a callback: it is sent after everything queued before it.
  process.send?.({ type: 'call', call: { seq: ++seq, at: Math.round(performance.now()), api: 'process.exited', args: [code] } }, () =>
    process.exit(code)
  )
}
