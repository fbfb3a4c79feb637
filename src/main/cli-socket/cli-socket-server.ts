/**
 * The contract over a local socket, for `cloud-tray` (src/cli): a transport like ipc.ts and the
 * web shell's WebSocket, in plain Node, run by both shells. Each connection is one client with a
 * ClientContext.clientId of its own (`cli-N`): its commands go through AppCore.handle (the
 * dispatcher's input schemas and re-login gate), its notices through AppCore.notice, events
 * addressed to it (terminal bytes, prompts, transfers) come only to it, and it hears the
 * broadcast events it subscribed to. When it goes, the core releases what it owned.
 *
 * Who may connect (see place-checks.ts and src/shared/node/cli-socket/protocol.ts): the socket
 * lives in a 0700 folder of the user's, is 0600, both re-checked on every connection, and every
 * client proves its uid with a file only that user can make there before anything else is read.
 * Never a TCP port.
 */
import { randomBytes } from 'node:crypto'
import { chmod, lstat, unlink } from 'node:fs/promises'
import { createConnection, createServer, type Server, type Socket } from 'node:net'
import type { CommandName, EventName, NoticeName } from '../../shared/contract'
import { BYTE_CARRYING_EVENTS, decodeFrame, encodeFrame, isClientMessage, type ServerMessage } from '../../shared/web/ws-protocol'
import { FrameReader, frameOf } from '../../shared/node/cli-socket/frames'
import type { CliSocketPlace } from '../../shared/node/cli-socket/place'
import {
  CLI_MAX_CLIENT_FRAME,
  CLI_PROTOCOL_VERSION,
  type ChallengeMessage,
  type CliHelloMessage,
  type RefusedMessage
} from '../../shared/node/cli-socket/protocol'
import type { AppCore, ClientId } from '../core-types'
import { claimSocketPath, placeProblemNow, prepareFolder } from './place-checks'
import { ProofError, takeProof } from './peer-proof'

export { CliPlaceError } from './place-checks'

export interface CliSocketOptions {
  core: Pick<AppCore, 'handle' | 'notice' | 'subscribe' | 'clientGone'>
  /** The app's version, told to each client. */
  version: string
  place: CliSocketPlace
  log?: { info(message: string): void; warn(message: string): void }
  /** A client whose unsent data exceeds this is too slow to keep up; it is disconnected. */
  maxBufferedBytes?: number
  /** A client that has not proved itself by then is disconnected. */
  proofTimeoutMs?: number
}

export interface CliSocketServer {
  readonly path: string
  readonly clientCount: number
  /** How many clients hear this broadcast event (a test knows when `watch` is listening). */
  subscribers(event: EventName): number
  close(): Promise<void>
}

/** Messages a client may send once it proved itself. */
type ReadyMessage = ReturnType<typeof decodeFrame>

interface Client {
  id: ClientId
  socket: Socket
  events: Set<string>
}

/** Is anything listening at `path`? */
export function probeSocket(path: string, timeoutMs = 2_000): Promise<'answered' | 'refused' | 'gone'> {
  return new Promise((resolve) => {
    const socket = createConnection(path)
    const done = (outcome: 'answered' | 'refused' | 'gone'): void => {
      clearTimeout(timer)
      socket.destroy()
      resolve(outcome)
    }
    // A frozen app still accepts (the kernel's backlog); only a refusal means nobody is there.
    const timer = setTimeout(() => done('answered'), timeoutMs)
    socket.once('connect', () => done('answered'))
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ENOENT' ? 'gone' : error.code === 'ECONNREFUSED' ? 'refused' : 'answered')
    )
  })
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/**
 * Serves the command line at `place`. Answers undefined when another Cloud Tray already serves
 * it (the command line talks to that one); throws CliPlaceError when the place is not safe to
 * serve in, saying why and what to do.
 */
export async function startCliSocket(options: CliSocketOptions): Promise<CliSocketServer | undefined> {
  const { core, place } = options
  const log = options.log ?? { info: () => undefined, warn: () => undefined }
  const maxBuffered = options.maxBufferedBytes ?? 64 * 1024 * 1024
  const proofTimeoutMs = options.proofTimeoutMs ?? 5_000

  await prepareFolder(place)
  if ((await claimSocketPath(place, (path) => probeSocket(path))) === 'busy') {
    log.info(`cli socket: another Cloud Tray already serves ${place.path}`)
    return undefined
  }
  const clients = new Map<ClientId, Client>()
  let nextClient = 1
  const server = createServer({ allowHalfOpen: false })
  try {
    await listen(server, place.path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      log.info(`cli socket: another Cloud Tray took ${place.path} first`)
      return undefined
    }
    throw error
  }
  let socketIno: number | undefined
  if (!place.pipe) {
    // Made with the process umask's mode: the 0700 folder keeps everyone else out until this chmod.
    await chmod(place.path, 0o600)
    socketIno = (await lstat(place.path)).ino
  }

  const write = (
    socket: Socket,
    message: ServerMessage | ChallengeMessage | RefusedMessage | CliHelloMessage,
    mayCarryBytes = false
  ): void => {
    if (socket.destroyed) return
    if (socket.writableLength > maxBuffered) {
      log.warn('cli socket: a client was too slow to keep up and was disconnected')
      socket.destroy()
      return
    }
    const [header, payload] = frameOf(encodeFrame(message, mayCarryBytes))
    socket.cork()
    socket.write(header)
    socket.write(payload)
    socket.uncork()
  }

  const refuse = (socket: Socket, message: string): void => {
    write(socket, { t: 'refused', message })
    socket.end()
  }

  const unsubscribe = core.subscribe((event, payload, target) => {
    const message: ServerMessage = { t: 'event', event, payload }
    const mayCarryBytes = BYTE_CARRYING_EVENTS.has(event)
    if (target !== undefined) {
      const client = clients.get(target)
      if (client) write(client.socket, message, mayCarryBytes)
      return
    }
    for (const client of clients.values()) if (client.events.has(event)) write(client.socket, message, mayCarryBytes)
  })

  const ready = (client: Client, message: ReadyMessage): void => {
    if (typeof message === 'object' && message !== null && (message as { t?: unknown }).t === 'subscribe') {
      const events = (message as { events?: unknown }).events
      if (Array.isArray(events)) client.events = new Set(events.filter((name): name is EventName => typeof name === 'string'))
      return
    }
    if (!isClientMessage(message) || message.t === 'no-downlink') {
      client.socket.destroy()
      return
    }
    if (message.t === 'notice') {
      core.notice(message.notice as NoticeName, message.input, { clientId: client.id })
      return
    }
    // The dispatcher answers a name the contract does not know ("Unknown command …"), as it answers a bad input.
    const { id, command, input } = message
    core
      .handle(command as CommandName, input, { clientId: client.id })
      .then((result) => write(client.socket, { t: 'result', id, result }))
      .catch((error: unknown) =>
        write(client.socket, {
          t: 'result',
          id,
          result: { ok: false, error: { kind: 'internal', message: `Cloud Tray failed on ${command}: ${String(error)}` } }
        })
      )
  }

  server.on('connection', (socket) => {
    socket.on('error', () => socket.destroy())
    const problem = placeProblemNow(place, socketIno)
    if (problem) {
      log.warn(`cli socket: connection refused: ${problem}`)
      refuse(socket, `Cloud Tray refused the connection: ${problem}`)
      return
    }
    const nonce = randomBytes(16).toString('hex')
    let client: Client | undefined
    let proving = false
    const timer = setTimeout(() => {
      if (!client) socket.destroy()
    }, proofTimeoutMs)
    const reader = new FrameReader(CLI_MAX_CLIENT_FRAME, (frame) => {
      let message: ReadyMessage
      try {
        message = decodeFrame(frame)
      } catch {
        socket.destroy()
        return
      }
      if (client) {
        ready(client, message)
        return
      }
      const proof = message as { t?: unknown; v?: unknown }
      if (proving || proof.t !== 'proof') {
        socket.destroy()
        return
      }
      if (proof.v !== CLI_PROTOCOL_VERSION) {
        refuse(
          socket,
          `This cloud-tray command speaks version ${String(proof.v)} of the app's protocol and the app ${CLI_PROTOCOL_VERSION}: use the command line that came with this Cloud Tray (${options.version}).`
        )
        return
      }
      proving = true
      socket.pause()
      takeProof(place.dir, nonce).then(
        (value) => {
          clearTimeout(timer)
          if (socket.destroyed) return
          const id: ClientId = `cli-${nextClient++}`
          client = { id, socket, events: new Set() }
          clients.set(id, client)
          write(socket, { t: 'hello', clientId: id, proof: value })
          socket.resume()
        },
        (error: unknown) => {
          const why = error instanceof ProofError ? error.message : String(error)
          log.warn(`cli socket: a client did not prove it runs as this user: ${why}`)
          refuse(socket, `Cloud Tray refused the connection: it could not check that this command runs as your user (${why}).`)
        }
      )
    })
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk)
      } catch {
        socket.destroy()
      }
    })
    socket.on('close', () => {
      clearTimeout(timer)
      if (!client) return
      clients.delete(client.id)
      core.clientGone(client.id)
    })
    write(socket, { t: 'challenge', v: CLI_PROTOCOL_VERSION, nonce, app: options.version })
  })
  log.info(`cli socket: serving ${place.path}`)

  let closing: Promise<void> | undefined
  return {
    path: place.path,
    get clientCount() {
      return clients.size
    },
    subscribers: (event) => [...clients.values()].filter((client) => client.events.has(event)).length,
    close() {
      closing ??= (async () => {
        unsubscribe()
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        for (const client of clients.values()) client.socket.destroy()
        await closed
        if (place.pipe) return
        // Only the socket this app made: another app may have replaced a removed one meanwhile.
        const now = await lstat(place.path).catch(() => undefined)
        if (now && now.ino === socketIno) await unlink(place.path).catch(() => undefined)
      })()
      return closing
    }
  }
}
