/**
 * The server side of the downlink (src/shared/web/downlink.ts): for each WebSocket client that
 * offered it, a single-use token, a queue for what is sent before the page opens the stream,
 * and then the streamed response itself.
 *
 * Who may open one: only the page holding the token, which it got over its authenticated
 * WebSocket (secret, Origin and Host checked there); the web server has checked Host already.
 * The token travels in a custom header, so another origin's page cannot even send the request
 * without a CORS preflight, which this server never answers.
 */
import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { DOWNLINK_HEADER, DOWNLINK_PATH, encodeRecord, type DownlinkFrame } from '../../shared/web/downlink'
import { frameLength, joinFrame } from '../../shared/web/ws-protocol'
import type { ClientId } from '../../main/core-types'
import { secretsMatch } from '../../shared/node/secret'

interface Downlink {
  token: string | undefined
  response: ServerResponse | undefined
  /** Frames sent before the page opened the stream. */
  waiting: DownlinkFrame[]
  waitingBytes: number
  /** The page is gone or too slow: its WebSocket is to be closed. */
  onFailed: (reason: string) => void
  timer: ReturnType<typeof setTimeout>
}

/** The reason given when a client falls too far behind (its socket closes with 1013). */
export const TOO_SLOW = 'Client too slow'

export interface DownlinksOptions {
  /** A client with more than this unsent is too slow to keep up. */
  maxBufferedBytes: number
  /** A page that has not opened its downlink by then never will. */
  openTimeoutMs?: number
}

export class Downlinks {
  private readonly links = new Map<ClientId, Downlink>()

  constructor(private readonly options: DownlinksOptions) {}

  /** Starts a downlink for `clientId`; returns the token for its `hello`. */
  offer(clientId: ClientId, onFailed: (reason: string) => void): string {
    const token = randomBytes(32).toString('hex')
    const timer = setTimeout(() => {
      if (this.links.get(clientId)?.response === undefined) this.fail(clientId, 'Downlink not opened')
    }, this.options.openTimeoutMs ?? 15_000)
    timer.unref?.()
    this.links.set(clientId, { token, response: undefined, waiting: [], waitingBytes: 0, onFailed, timer })
    return token
  }

  has(clientId: ClientId): boolean {
    return this.links.has(clientId)
  }

  /** Sends on the client's stream, or queues until it opens; a client too far behind fails. */
  send(clientId: ClientId, frame: DownlinkFrame): void {
    const link = this.links.get(clientId)
    if (!link) return
    const response = link.response
    if (!response) {
      link.waiting.push(frame)
      link.waitingBytes += frameLength(frame)
      if (link.waitingBytes > this.options.maxBufferedBytes) this.fail(clientId, TOO_SLOW)
      return
    }
    if (response.writableLength > this.options.maxBufferedBytes) this.fail(clientId, TOO_SLOW)
    else write(response, frame)
  }

  /** Serves DOWNLINK_PATH; answers false for any other request (not ours). */
  handleRequest(request: IncomingMessage, response: ServerResponse): boolean {
    if (new URL(request.url ?? '/', 'http://placeholder').pathname !== DOWNLINK_PATH) return false
    const offered = request.headers[DOWNLINK_HEADER]
    const entry = typeof offered === 'string' && request.method === 'GET' ? this.byToken(offered) : undefined
    if (!entry) {
      response.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Unauthorized')
      return true
    }
    const [clientId, link] = entry
    link.token = undefined
    link.response = response
    clearTimeout(link.timer)
    response.writeHead(200, {
      'Content-Type': 'application/octet-stream',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff'
    })
    // Terminal output is latency-bound: no Nagle delay on small records.
    response.socket?.setNoDelay(true)
    response.flushHeaders()
    const waiting = link.waiting
    link.waiting = []
    link.waitingBytes = 0
    for (const frame of waiting) write(response, frame)
    response.on('close', () => {
      if (this.links.get(clientId)?.response === response) this.fail(clientId, 'Downlink closed')
    })
    return true
  }

  /**
   * The page could not open its stream: forget the downlink (later sends go on the socket) and
   * hand back what waited for it, oldest first. Nothing once the stream is open.
   */
  decline(clientId: ClientId): (string | Uint8Array)[] {
    const link = this.links.get(clientId)
    if (!link || link.response) return []
    this.links.delete(clientId)
    clearTimeout(link.timer)
    return link.waiting.map(joinFrame)
  }

  /** The client's WebSocket closed: end its stream. */
  drop(clientId: ClientId): void {
    const link = this.links.get(clientId)
    if (!link) return
    this.links.delete(clientId)
    clearTimeout(link.timer)
    link.response?.end()
  }

  closeAll(): void {
    for (const clientId of [...this.links.keys()]) this.drop(clientId)
  }

  private byToken(offered: string): [ClientId, Downlink] | undefined {
    for (const entry of this.links) {
      const token = entry[1].token
      if (token !== undefined && secretsMatch(offered, token)) return entry
    }
    return undefined
  }

  private fail(clientId: ClientId, reason: string): void {
    const link = this.links.get(clientId)
    if (!link) return
    this.drop(clientId)
    link.onFailed(reason)
  }
}

function write(response: ServerResponse, frame: DownlinkFrame): void {
  // One chunk on the wire for the head and the frame's parts, without copying them: and with the
  // uncork on the next tick, every frame main sends in this tick (a flood's batches for all tabs,
  // their status lines) goes out as one write, which the page reads and hands to xterm in one task.
  response.cork()
  for (const part of encodeRecord(frame)) response.write(part)
  process.nextTick(() => response.uncork())
}
