/**
 * The page side of the WebSocket transport (see src/shared/web/ws-protocol.ts): a CloudBridge, so
 * views cannot tell it from Electron's `window.cloud`.
 *
 * Given `openDownlink`, it asks for main's messages on a streamed response (src/shared/web/downlink.ts)
 * and sends on the socket only; the two live and die together.
 *
 * If the socket drops (the web shell restarted, the laptop slept) it reconnects with backoff;
 * calls in flight when it dropped resolve with a `network` error that says what to do, and
 * calls made while it is down wait for the connection instead of failing at once.
 */
import type { CloudBridge, CommandName, EventName, NoticeName, Result } from '../../../shared/contract'
import {
  WS_PATH,
  WS_PROTOCOL,
  WS_SECRET_PREFIX,
  BYTE_CARRYING_NOTICES,
  decodeFrame,
  encodeFrame,
  isServerMessage,
  type ServerMessage
} from '../../../shared/web/ws-protocol'
import { DOWNLINK_HEADER, DOWNLINK_OFFER, DOWNLINK_PATH, DownlinkDecoder } from '../../../shared/web/downlink'
import type { WebShellEventName, WebShellEvents } from '../../../shared/web/web-shell-events'
import { fromWire } from '../../../shared/web/instances-wire'

/** The subset of the browser's WebSocket this uses (the `ws` package's client fits, for tests). */
export interface WebSocketLike {
  binaryType: string
  readonly readyState: number
  send(data: string | Uint8Array): void
  close(code?: number, reason?: string): void
  onopen: ((event: unknown) => void) | null
  onclose: ((event: { code: number; reason: string }) => void) | null
  onerror: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
}

export type WebSocketFactory = (url: string, protocols: string[]) => WebSocketLike

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'refused'

export interface WsBridgeOptions {
  /** e.g. `ws://127.0.0.1:5123` (the path is added). */
  origin: string
  secret: string
  createSocket?: WebSocketFactory
  /** Told whenever the connection state changes (the page shows a banner while it is down). */
  onState?: (state: ConnectionState) => void
  /** Delay before reconnect attempt n (1-based). */
  reconnectDelayMs?: (attempt: number) => number
  setTimer?: (callback: () => void, ms: number) => unknown
  /**
   * Opens the downlink with the token from `hello` (see fetchDownlink). Absent: every message
   * comes on the socket.
   */
  openDownlink?: (token: string) => Promise<ReadableStream<Uint8Array>>
}

/** What fetchDownlink needs of `fetch` (the page's and Node's both fit). */
export type DownlinkFetch = (
  url: string,
  init: { headers: Record<string, string>; cache: 'no-store'; credentials: 'omit' }
) => Promise<{ ok: boolean; status: number; body: ReadableStream<Uint8Array> | null }>

/** Opens the downlink with `fetch`, at `base` (empty in a page: its own origin). */
export function fetchDownlink(
  base = '',
  fetcher: DownlinkFetch = (url, init) => fetch(url, init)
): (token: string) => Promise<ReadableStream<Uint8Array>> {
  return async (token) => {
    const response = await fetcher(`${base}${DOWNLINK_PATH}`, {
      headers: { [DOWNLINK_HEADER]: token },
      cache: 'no-store',
      credentials: 'omit'
    })
    if (!response.ok || !response.body) throw new Error(`downlink refused: HTTP ${response.status}`)
    return response.body
  }
}

export interface WsBridge extends CloudBridge {
  readonly clientId: string | null
  readonly state: ConnectionState
  /** The web shell's own events (tray, recorded effects); returns a function that removes the listener. */
  onShellEvent<E extends WebShellEventName>(event: E, listener: (payload: WebShellEvents[E]) => void): () => void
  close(): void
}

const OPEN = 1

const LOST: Result<never> = {
  ok: false,
  error: {
    kind: 'network',
    message:
      'The connection to Cloud Tray was lost while this was running. Check the result, then try again; if the web shell stopped, start `npm run web` again and reload this page.'
  }
}

/** What a browser's MessagePort and Node's (the transport's tests) both have; Node's typings lack `onmessage`. */
interface TaskPort {
  onmessage: (() => void) | null
  postMessage(message: null): void
  close(): void
}

/** A task of its own, by a message rather than a timer: a hidden tab runs timers once a second at most. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel() as unknown as { port1: TaskPort; port2: TaskPort }
    port1.onmessage = () => {
      port1.close()
      resolve()
    }
    port2.postMessage(null)
  })
}

function defaultDelay(attempt: number): number {
  return Math.min(10_000, 250 * 2 ** (attempt - 1))
}

export function createWsBridge(options: WsBridgeOptions): WsBridge {
  const createSocket: WebSocketFactory =
    options.createSocket ?? ((url, protocols) => new WebSocket(url, protocols) as unknown as WebSocketLike)
  const delay = options.reconnectDelayMs ?? defaultDelay
  const setTimer = options.setTimer ?? ((callback: () => void, ms: number) => setTimeout(callback, ms))
  const url = `${options.origin}${WS_PATH}`
  const openDownlink = options.openDownlink
  /**
   * Set when the downlink could not be opened at all (a proxy or an older browser refusing a
   * streamed response): main is told so and answers on the socket, slower but working, and
   * later connections do not ask again.
   */
  let downlinkRefused = false
  const protocols = (): string[] => [
    WS_PROTOCOL,
    `${WS_SECRET_PREFIX}${options.secret}`,
    ...(openDownlink && !downlinkRefused ? [DOWNLINK_OFFER] : [])
  ]

  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const pending = new Map<number, (result: Result<unknown>) => void>()
  /** Frames waiting for the socket to open. */
  let queued: (string | Uint8Array)[] = []
  let nextId = 1
  let socket: WebSocketLike | null = null
  let state: ConnectionState = 'connecting'
  let clientId: string | null = null
  let attempts = 0
  let everOpened = false
  let closed = false

  const setState = (next: ConnectionState): void => {
    if (state === next) return
    state = next
    options.onState?.(next)
  }

  /** Answers whether the frame was a call's answer. */
  const receive = (frame: string | Uint8Array): boolean => {
    let message: unknown
    try {
      // Views, not copies: each frame here is the page's own (see decodeFrame).
      message = decodeFrame(frame, true)
    } catch {
      return false
    }
    if (!isServerMessage(message)) return false
    dispatch(message)
    return message.t === 'result'
  }

  /** Reads `current`'s downlink until it ends; then the socket goes too (and reconnects). */
  const readDownlink = async (
    current: WebSocketLike,
    open: (token: string) => Promise<ReadableStream<Uint8Array>>,
    token: string
  ): Promise<void> => {
    let stream: ReadableStream<Uint8Array>
    try {
      stream = await open(token)
    } catch {
      // Main then answers on this socket, calls in flight included; later connections do not ask.
      downlinkRefused = true
      if (socket === current && current.readyState === OPEN) current.send(encodeFrame({ t: 'no-downlink' }, false))
      return
    }
    try {
      const reader = stream.getReader()
      const decoder = new DownlinkDecoder()
      while (socket === current) {
        const { value, done } = await reader.read()
        if (done) break
        // Every message of one read in this task (xterm then parses a read's batches in one slice),
        // except after a call's answer: its caller takes it up in the next microtasks, so what
        // main sent after it waits for the next task, as it would over Electron's IPC, where
        // each message is a task of its own. Otherwise an event main sent after the answer
        // would be applied first, and the older answer after it.
        for (const frame of decoder.push(value)) {
          if (socket !== current) break
          if (receive(frame)) await nextTask()
        }
      }
      void reader.cancel().catch(() => {})
    } catch {
      // Cut or malformed: the same as a lost socket.
    }
    if (socket === current) current.close(4001, 'Downlink lost')
  }

  const dispatch = (message: ServerMessage): void => {
    switch (message.t) {
      case 'hello':
        clientId = message.clientId
        if (message.downlink !== undefined && openDownlink && socket) void readDownlink(socket, openDownlink, message.downlink)
        return
      case 'result': {
        const resolve = pending.get(message.id)
        pending.delete(message.id)
        resolve?.(message.result)
        return
      }
      case 'event': {
        const payload = fromWire(message.event, message.payload)
        for (const listener of listeners.get(message.event) ?? []) listener(payload)
      }
    }
  }

  const connect = (): void => {
    const current = createSocket(url, protocols())
    socket = current
    current.binaryType = 'arraybuffer'
    current.onopen = () => {
      everOpened = true
      attempts = 0
      setState('open')
      const frames = queued
      queued = []
      for (const frame of frames) current.send(frame)
    }
    current.onmessage = (event) => {
      const data = event.data
      receive(typeof data === 'string' ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : (data as Uint8Array))
    }
    current.onerror = () => {
      // onclose follows; nothing to do here.
    }
    current.onclose = () => {
      if (socket !== current) return
      socket = null
      clientId = null
      // Calls sent on this socket will never be answered.
      for (const resolve of pending.values()) resolve(LOST)
      pending.clear()
      if (closed) return
      attempts += 1
      // Never opened after a few tries: the server refuses us (stale secret, wrong origin).
      setState(everOpened ? 'reconnecting' : attempts >= 3 ? 'refused' : 'connecting')
      setTimer(() => {
        if (!closed) connect()
      }, delay(attempts))
    }
  }

  connect()

  /** Main's events and the web shell's own arrive the same way: one listener table for both. */
  const listen = (event: EventName | WebShellEventName, listener: (payload: never) => void): (() => void) => {
    let set = listeners.get(event)
    if (!set) {
      set = new Set()
      listeners.set(event, set)
    }
    const wrapped = listener as (payload: unknown) => void
    set.add(wrapped)
    return () => {
      set.delete(wrapped)
    }
  }

  const bridge: WsBridge = {
    get clientId() {
      return clientId
    },
    get state() {
      return state
    },
    invoke(command: CommandName, ...input: unknown[]) {
      if (closed) return Promise.resolve(LOST)
      const id = nextId++
      const frame = encodeFrame({ t: 'invoke', id, command, ...(input.length > 0 ? { input: input[0] } : {}) })
      return new Promise<Result<unknown>>((resolve) => {
        pending.set(id, resolve)
        if (socket && socket.readyState === OPEN) socket.send(frame)
        else queued.push(frame)
      })
    },
    /**
     * A notice goes as a frame nothing answers. Dropped while the socket is down: the terminal
     * it types into or acknowledges belonged to the connection that was lost (main closed it).
     */
    send(notice: NoticeName, input: unknown) {
      if (closed || !socket || socket.readyState !== OPEN) return
      // Plain JSON unless the notice carries bytes (an upload chunk goes as one binary frame).
      socket.send(encodeFrame({ t: 'notice', notice, input }, BYTE_CARRYING_NOTICES.has(notice)))
    },
    on: listen,
    onShellEvent: listen,
    close() {
      closed = true
      socket?.close(1000, 'Page closed')
    }
  } as WsBridge
  return bridge
}
