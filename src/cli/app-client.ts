/**
 * The command line's connection to the running app: the socket in the user's runtime folder
 * (src/shared/node/cli-socket/place.ts), the proof that this process runs as the app's user and
 * that the app is the user's own (protocol.ts), then the window's own messages: commands
 * answered with a Result, one-way notices, and events.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, constants, lstatSync, openSync, unlinkSync, writeSync } from 'node:fs'
import { createConnection, type Socket } from 'node:net'
import { join } from 'node:path'
import type { CommandInput, CommandName, CommandResult, EventName, Events, NoticeInput, NoticeName } from '../shared/contract'
import type { Result } from '../shared/errors'
import { FrameReader, frameOf } from '../shared/node/cli-socket/frames'
import type { CliSocketPlace } from '../shared/node/cli-socket/place'
import { folderProblem } from '../shared/node/cli-socket/place-rules'
import { CLI_MAX_SERVER_FRAME, CLI_PROTOCOL_VERSION, PROOF_VALUE, proofFileName } from '../shared/node/cli-socket/protocol'
import { decodeFrame, encodeFrame } from '../shared/web/ws-protocol'
import { CliError, EXIT } from './exit-codes'

export interface AppClient {
  readonly clientId: string
  /** The app's version. */
  readonly appVersion: string
  invoke<C extends CommandName>(
    command: C,
    ...input: CommandInput<C> extends void ? [] : [CommandInput<C>]
  ): Promise<Result<CommandResult<C>>>
  notice<N extends NoticeName>(notice: N, input: NoticeInput<N>): void
  /** Listens to an event; broadcast events come only once `subscribe` named them. */
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void
  /** Asks for these broadcast events (added to those asked before). */
  subscribe(...events: EventName[]): void
  /** Resolves when the socket has room again (after a burst of notices). */
  drained(): Promise<void>
  /** Resolves when the connection ends, for any reason. */
  readonly closed: Promise<void>
  close(): void
}

/** The app cannot be reached: `absent` when nothing listens (it is not running), else it refused or is not safe to use. */
export class AppNotRunningError extends CliError {
  override name = 'AppNotRunningError'
  constructor(
    message: string,
    readonly absent = false
  ) {
    super(message, EXIT.notRunning)
  }
}

const NOT_RUNNING = 'Cloud Tray is not running.'

const GONE = 'Cloud Tray closed the connection (did it quit?).'

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

/** Before connecting: the folder must be the user's own and closed to others, or nothing is sent there. */
function checkFolder(place: CliSocketPlace): void {
  if (place.pipe) return
  let problem: string | undefined
  try {
    problem = folderProblem(place.dir, lstatSync(place.dir))
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') throw new AppNotRunningError(NOT_RUNNING, true)
    problem = `${place.dir} cannot be checked (${errnoOf(error) ?? String(error)})`
  }
  if (problem) throw new AppNotRunningError(`The command line will not connect through ${place.dir}: ${problem}`)
}

function writeProof(dir: string, nonce: string): { path: string; value: string } {
  const path = join(dir, proofFileName(nonce))
  const value = randomBytes(32).toString('hex')
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600)
  try {
    writeSync(fd, value)
  } finally {
    closeSync(fd)
  }
  return { path, value }
}

export async function connectToApp(place: CliSocketPlace, timeoutMs = 10_000): Promise<AppClient> {
  checkFolder(place)
  const socket: Socket = createConnection(place.path)
  const listeners = new Map<string, Set<(payload: never) => void>>()
  const pending = new Map<number, { resolve: (result: Result<unknown>) => void; reject: (error: Error) => void }>()
  const subscribed = new Set<string>()
  let nextId = 1
  let closedReason: Error | undefined
  let proofPath: string | undefined
  let proofValue: string | undefined
  let resolveClosed!: () => void
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve))

  const send = (message: unknown, mayCarryBytes = false): boolean => {
    const [header, payload] = frameOf(encodeFrame(message, mayCarryBytes))
    socket.cork()
    socket.write(header)
    const room = socket.write(payload)
    socket.uncork()
    return room
  }

  const greeting = new Promise<{ clientId: string; appVersion: string }>((resolve, reject) => {
    let appVersion = ''
    const timer = setTimeout(() => {
      reject(
        new AppNotRunningError(
          `Cloud Tray did not answer at ${place.path} within ${Math.round(timeoutMs / 1000)} s; it may be busy or stuck.`
        )
      )
      socket.destroy()
    }, timeoutMs)
    const settle = (): void => clearTimeout(timer)
    const reader = new FrameReader(CLI_MAX_SERVER_FRAME, (frame) => {
      const message = decodeFrame(frame) as Record<string, unknown>
      switch (message['t']) {
        case 'challenge': {
          appVersion = String(message['app'] ?? '')
          if (message['v'] !== CLI_PROTOCOL_VERSION) {
            settle()
            reject(
              new AppNotRunningError(
                `This cloud-tray command (protocol ${CLI_PROTOCOL_VERSION}) does not match the running Cloud Tray ${appVersion} (protocol ${String(message['v'])}): use the command line that came with the app.`
              )
            )
            socket.destroy()
            return
          }
          try {
            const proof = writeProof(place.dir, String(message['nonce']))
            proofPath = proof.path
            proofValue = proof.value
          } catch (error) {
            settle()
            reject(
              new AppNotRunningError(
                `The command line could not prove who it runs as (${errnoOf(error) ?? String(error)} in ${place.dir}).`
              )
            )
            socket.destroy()
            return
          }
          send({ t: 'proof', v: CLI_PROTOCOL_VERSION })
          return
        }
        case 'refused':
          settle()
          reject(new AppNotRunningError(String(message['message'] ?? 'Cloud Tray refused the connection.')))
          return
        case 'hello': {
          settle()
          const proof = String(message['proof'] ?? '')
          if (!proofValue || !PROOF_VALUE.test(proof) || proof !== proofValue) {
            reject(
              new AppNotRunningError(
                `The program answering at ${place.path} did not prove it is your Cloud Tray, so nothing was sent to it. Quit whatever holds that socket and start Cloud Tray again.`
              )
            )
            socket.destroy()
            return
          }
          resolve({ clientId: String(message['clientId']), appVersion })
          return
        }
        case 'result': {
          const id = message['id'] as number
          const waiter = pending.get(id)
          pending.delete(id)
          waiter?.resolve(message['result'] as Result<unknown>)
          return
        }
        case 'event':
          for (const listener of listeners.get(String(message['event'])) ?? []) listener(message['payload'] as never)
          return
      }
    })
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk)
      } catch {
        socket.destroy(new Error('Cloud Tray sent something this command line cannot read.'))
      }
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      settle()
      const code = errnoOf(error)
      closedReason =
        code === 'ENOENT' || code === 'ECONNREFUSED'
          ? new AppNotRunningError(NOT_RUNNING, true)
          : code === 'EACCES'
            ? new AppNotRunningError(
                `Your user may not open ${place.path} (permission denied): it is another user's, or its folder's permissions changed.`
              )
            : new CliError(`The connection to Cloud Tray failed: ${error.message}`)
      reject(closedReason)
    })
    socket.on('close', () => {
      settle()
      reject(closedReason ?? new CliError(GONE))
      for (const waiter of pending.values()) waiter.reject(closedReason ?? new CliError(GONE))
      pending.clear()
      resolveClosed()
    })
  })
  let hello: { clientId: string; appVersion: string }
  try {
    hello = await greeting
  } finally {
    // The app removes the proof when it reads it; if it never did, it goes now.
    if (proofPath) {
      try {
        unlinkSync(proofPath)
      } catch {
        // Already gone: the usual case.
      }
    }
  }
  socket.setNoDelay?.(true)

  const invokeAny = (command: string, input: unknown): Promise<Result<unknown>> =>
    new Promise((resolve, reject) => {
      if (socket.destroyed) {
        reject(closedReason ?? new CliError(GONE))
        return
      }
      const id = nextId++
      pending.set(id, { resolve, reject })
      send({ t: 'invoke', id, command, ...(input === undefined ? {} : { input }) }, true)
    })

  return {
    clientId: hello.clientId,
    appVersion: hello.appVersion,
    invoke: ((command: CommandName, input?: unknown) => invokeAny(command, input)) as AppClient['invoke'],
    notice(notice, input) {
      if (!socket.destroyed) send({ t: 'notice', notice, input }, true)
    },
    on(event, listener) {
      let set = listeners.get(event)
      if (!set) listeners.set(event, (set = new Set()))
      set.add(listener as (payload: never) => void)
      return () => set.delete(listener as (payload: never) => void)
    },
    subscribe(...events) {
      const before = subscribed.size
      for (const event of events) subscribed.add(event)
      if (subscribed.size !== before) send({ t: 'subscribe', events: [...subscribed] })
    },
    drained: () =>
      socket.writableNeedDrain && !socket.destroyed
        ? new Promise<void>((resolve) => {
            const done = (): void => {
              socket.off('drain', done)
              socket.off('close', done)
              resolve()
            }
            socket.on('drain', done)
            socket.on('close', done)
          })
        : Promise.resolve(),
    closed,
    close: () => socket.end()
  }
}
