/**
 * The contract over a WebSocket, served next to the web shell's HTTP server (same port, path
 * /ws). Each connection is one renderer: a ClientContext.clientId of its own, events addressed
 * to it (`target`) go only there, and when it closes the core releases what it owned.
 *
 * Who may connect: only a page that knows the per-run secret (offered as the subprotocol
 * `secret.<hex>`, compared in constant time), from an allowed Origin, to the loopback Host the
 * server listens on (so a DNS-rebinding page cannot reach it either).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket, type RawData } from 'ws'
import { COMMAND_NAMES, type CommandName, type Events, type NoticeName } from '../../shared/contract'
import type { WebShellEvents } from '../../shared/web/web-shell-events'
import type { AppCore, ClientId } from '../../main/core-types'
import { DOWNLINK_OFFER } from '../../shared/web/downlink'
import { Downlinks, TOO_SLOW } from './downlink-server'
import { toWire } from '../../shared/web/instances-wire'
import { secretsMatch } from '../../shared/node/secret'
import {
  BYTE_CARRYING_EVENTS,
  WS_MAX_CLIENT_MESSAGE_BYTES,
  WS_PATH,
  WS_PROTOCOL,
  WS_SECRET_PREFIX,
  decodeFrame,
  encodeFrame,
  encodeFrameParts,
  isClientMessage,
  type ServerMessage
} from '../../shared/web/ws-protocol'

/**
 * Where a page's events come in: main's, and the web shell's own (src/shared/web/web-shell-events.ts).
 * The transport only frames them, so any payload will do; both kinds of sink accept this one.
 */
export type PageEventSink = (event: keyof Events | keyof WebShellEvents, payload: unknown, target?: ClientId) => void

/** The core as the transport uses it, with the web shell's events among those it subscribes to. */
export type TransportCore = Pick<AppCore, 'handle' | 'notice' | 'clientGone'> & {
  subscribe(sink: PageEventSink): () => void
}

export interface WsTransportOptions {
  core: TransportCore
  /** The per-run secret, as hex (see secret.ts, createSecret). */
  secret: string
  /** Origins allowed to connect, e.g. `http://127.0.0.1:5123`. Computed lazily: the port is known after listen. */
  allowedOrigins: () => readonly string[]
  /** Host header values allowed, e.g. `127.0.0.1:5123`. */
  allowedHosts: () => readonly string[]
  /** A client whose unsent data exceeds this is too slow to keep up; it is disconnected. */
  maxBufferedBytes?: number
  /**
   * Gives pages that ask for it a downlink (src/shared/web/downlink.ts). Only for an HTTP server that
   * routes its requests through `handleRequest`; otherwise pages keep everything on the socket.
   */
  downlink?: boolean
  /** A page that offered a downlink but has not opened it by then is disconnected. */
  downlinkOpenTimeoutMs?: number
  /** A page connected (after its `hello`): e.g. send it what it missed, addressed to `clientId`. */
  welcome?(clientId: ClientId): void
}

export interface WsTransport {
  readonly clientCount: number
  /** Serves a page's downlink request (src/shared/web/downlink.ts); false for any other request. */
  handleRequest(request: IncomingMessage, response: ServerResponse): boolean
  close(): Promise<void>
}

const commandNames = new Set<string>(COMMAND_NAMES)

function offeredProtocols(request: IncomingMessage): string[] {
  const header = request.headers['sec-websocket-protocol']
  if (typeof header !== 'string') return []
  return header
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
}

function reject(socket: Duplex, status: number, reason: string): void {
  socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
  socket.destroy()
}

/** Checks an upgrade request; returns why it is refused, or null when it may connect. */
export function refuseUpgrade(
  request: IncomingMessage,
  options: Pick<WsTransportOptions, 'secret' | 'allowedOrigins' | 'allowedHosts'>
): { status: number; reason: string } | null {
  const url = new URL(request.url ?? '/', 'http://placeholder')
  if (url.pathname !== WS_PATH) return { status: 404, reason: 'Not Found' }
  if (!options.allowedHosts().includes(request.headers.host ?? '')) return { status: 403, reason: 'Forbidden' }
  if (!options.allowedOrigins().includes(request.headers.origin ?? '')) return { status: 403, reason: 'Forbidden' }
  const protocols = offeredProtocols(request)
  if (!protocols.includes(WS_PROTOCOL)) return { status: 400, reason: 'Bad Request' }
  const offered = protocols.find((p) => p.startsWith(WS_SECRET_PREFIX))?.slice(WS_SECRET_PREFIX.length) ?? ''
  if (!secretsMatch(offered, options.secret)) return { status: 401, reason: 'Unauthorized' }
  return null
}

/** Serves the contract on `server`'s upgrade requests to /ws. */
export function attachWsTransport(server: Server, options: WsTransportOptions): WsTransport {
  const maxBuffered = options.maxBufferedBytes ?? 64 * 1024 * 1024
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: WS_MAX_CLIENT_MESSAGE_BYTES,
    // Never echo the secret: answer with the protocol name only.
    handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false)
  })
  const clients = new Map<ClientId, WebSocket>()
  const downlinks = new Downlinks({
    maxBufferedBytes: maxBuffered,
    ...(options.downlinkOpenTimeoutMs !== undefined ? { openTimeoutMs: options.downlinkOpenTimeoutMs } : {})
  })
  let nextClient = 1

  const send = (clientId: ClientId, message: ServerMessage): void => {
    const socket = clients.get(clientId)
    if (!socket || socket.readyState !== socket.OPEN) return
    const mayCarryBytes = message.t === 'event' && BYTE_CARRYING_EVENTS.has(message.event)
    if (message.t !== 'hello' && downlinks.has(clientId)) {
      downlinks.send(clientId, encodeFrameParts(message, mayCarryBytes))
      return
    }
    if (socket.bufferedAmount > maxBuffered) {
      socket.close(1013, 'Client too slow')
      return
    }
    socket.send(encodeFrame(message, mayCarryBytes))
  }

  const unsubscribe = options.core.subscribe((event, payload, target) => {
    const message: ServerMessage = { t: 'event', event, payload: toWire(event, payload) }
    if (target !== undefined) {
      send(target, message)
      return
    }
    for (const clientId of clients.keys()) send(clientId, message)
  })

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const refusal = refuseUpgrade(request, options)
    if (refusal) {
      reject(socket, refusal.status, refusal.reason)
      return
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request))
  }
  server.on('upgrade', onUpgrade)

  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const clientId: ClientId = `ws-${nextClient++}`
    clients.set(clientId, socket)
    if (options.downlink === true && offeredProtocols(request).includes(DOWNLINK_OFFER)) {
      const downlink = downlinks.offer(clientId, (reason) => socket.close(reason === TOO_SLOW ? 1013 : 1001, reason))
      send(clientId, { t: 'hello', clientId, downlink })
    } else {
      send(clientId, { t: 'hello', clientId })
    }
    options.welcome?.(clientId)

    socket.on('message', (data: RawData, isBinary: boolean) => {
      let message: unknown
      try {
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)
        message = decodeFrame(isBinary ? new Uint8Array(bytes) : bytes.toString('utf8'))
      } catch {
        socket.close(1008, 'Malformed message')
        return
      }
      if (!isClientMessage(message)) {
        socket.close(1008, 'Unknown message')
        return
      }
      if (message.t === 'no-downlink') {
        for (const frame of downlinks.decline(clientId)) socket.send(frame)
        return
      }
      if (message.t === 'notice') {
        // Never answered; the core checks the name and input, and drops and logs what it cannot take.
        options.core.notice(message.notice as NoticeName, message.input, { clientId })
        return
      }
      const { id, command, input } = message
      if (!commandNames.has(command)) {
        send(clientId, {
          t: 'result',
          id,
          result: { ok: false, error: { kind: 'bad-input', message: `Unknown command ${command}.` } }
        })
        return
      }
      options.core
        .handle(command as CommandName, input, { clientId })
        .then((result) => send(clientId, { t: 'result', id, result }))
        .catch((error: unknown) => {
          // handle() never rejects by contract; if it does, that is a bug worth naming, not a hang.
          send(clientId, {
            t: 'result',
            id,
            result: { ok: false, error: { kind: 'internal', message: `Cloud Tray failed on ${command}: ${String(error)}` } }
          })
        })
    })

    socket.on('close', () => {
      clients.delete(clientId)
      downlinks.drop(clientId)
      options.core.clientGone(clientId)
    })
    socket.on('error', () => socket.terminate())
  })

  return {
    get clientCount() {
      return clients.size
    },
    handleRequest: (request, response) => downlinks.handleRequest(request, response),
    close() {
      server.off('upgrade', onUpgrade)
      unsubscribe()
      downlinks.closeAll()
      for (const socket of clients.values()) socket.terminate()
      return new Promise((resolve) => wss.close(() => resolve()))
    }
  }
}
