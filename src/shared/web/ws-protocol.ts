/**
 * The contract (contract.ts) over a WebSocket: what `npm run web` and the browser tests use in
 * place of Electron IPC. Runs in Node (src/web/transport/ws-server.ts) and in the page
 * (src/renderer/src/lib/transport-ws.ts), so it uses only what both have (TextEncoder, DataView).
 *
 * Messages are JSON. A message that carries bytes (`ssh.data`'s Uint8Array) goes as one binary
 * frame instead of base64, so terminal output costs no 33 % inflation and no string copy:
 *
 *   [u32 big-endian: header length][header: UTF-8 JSON][chunk 0][chunk 1]…
 *
 * where the header is `{m: message, b: [length of chunk 0, …]}` and each Uint8Array inside
 * `message` is replaced by `{$bin: index}`. A message without bytes is a plain text frame.
 *
 * A page may ask for main's messages on a streamed HTTP response instead (downlink.ts); the
 * frames are the same, only their envelope differs. The command line's socket carries these
 * messages too, each frame length-prefixed (src/shared/node/cli-socket/).
 */
import type { Result } from '../errors'

/** Offered by the page and echoed by the server; a second subprotocol carries the secret. */
export const WS_PROTOCOL = 'cloud-tray.v1'
/**
 * The per-run secret travels as the subprotocol `secret.<hex>` so it never appears in a URL the
 * server could log, and a page from another origin cannot open the socket without knowing it.
 */
export const WS_SECRET_PREFIX = 'secret.'
/** The path the server accepts upgrades on. */
export const WS_PATH = '/ws'
/** Largest message a client may send (a create request with a long init script fits easily). */
export const WS_MAX_CLIENT_MESSAGE_BYTES = 1024 * 1024

export interface InvokeMessage {
  t: 'invoke'
  /** Chosen by the client, echoed in the result; unique per connection. */
  id: number
  command: string
  input?: unknown
}

/**
 * A contract notice (`ssh.ack`, `ssh.input`, `ssh.resize`): no frame comes back. During a
 * terminal flood the page sends an ack per parsed batch; each result frame would be one more
 * WebSocket message for the busy renderer thread to receive and decode, for an answer nobody reads.
 */
export interface NoticeMessage {
  t: 'notice'
  notice: string
  input?: unknown
}

/**
 * Notices whose input carries a Uint8Array (contract-files.ts): sent as one binary frame. An
 * upload chunk is one: flow control comes back as `files.written` events, so a 256 KiB chunk
 * costs no answer of its own.
 */
export const BYTE_CARRYING_NOTICES: ReadonlySet<string> = new Set(['files.chunk'])

/**
 * The page could not open the downlink its `hello` offered (a proxy or browser refusing a
 * streamed response): main sends what it queued for it, and everything after, on the socket.
 */
export interface NoDownlinkMessage {
  t: 'no-downlink'
}

export type ClientMessage = InvokeMessage | NoticeMessage | NoDownlinkMessage

export interface HelloMessage {
  t: 'hello'
  /** The ClientContext.clientId main uses for this connection. */
  clientId: string
  /**
   * Present when the page offered DOWNLINK_OFFER: the single-use token that opens its downlink
   * (src/shared/web/downlink.ts). Every later message for the page comes down that stream.
   */
  downlink?: string
}

export interface ResultMessage {
  t: 'result'
  id: number
  result: Result<unknown>
}

export interface EventMessage {
  t: 'event'
  event: string
  payload: unknown
}

export type ServerMessage = HelloMessage | ResultMessage | EventMessage

const textEncoder = new TextEncoder()
const textDecoder = new TextDecoder()

interface BinaryRef {
  $bin: number
}

function isBinaryRef(value: unknown): value is BinaryRef {
  return (
    typeof value === 'object' && value !== null && typeof (value as { $bin?: unknown }).$bin === 'number' && Object.keys(value).length === 1
  )
}

/**
 * Events whose payload carries a Uint8Array (contract-ssh.ts). Every other event and every
 * command result is plain JSON, so the server encodes those without the byte-finding replacer,
 * which halves the cost of a 1000-instance snapshot. A new event with bytes must be added here.
 */
export const BYTE_CARRYING_EVENTS: ReadonlySet<string> = new Set(['ssh.data', 'files.data'])

/**
 * One frame for a message: a string (text frame) or bytes (binary frame). `mayCarryBytes:
 * false` skips looking for Uint8Arrays (see BYTE_CARRYING_EVENTS).
 */
export function encodeFrame(message: unknown, mayCarryBytes = true): string | Uint8Array {
  return joinFrame(encodeFrameParts(message, mayCarryBytes))
}

/**
 * The same frame as its parts: a string, or a binary frame's [length + header, ...byte chunks]
 * whose concatenation is encodeFrame's answer. The downlink writes the parts one after another,
 * so a terminal batch goes from the SSH channel to the socket without being copied into a frame.
 */
export function encodeFrameParts(message: unknown, mayCarryBytes = true): string | Uint8Array[] {
  if (!mayCarryBytes) return JSON.stringify(message)
  const chunks: Uint8Array[] = []
  const json = JSON.stringify(message, function (this: Record<string, unknown>, key: string, value: unknown) {
    // Read the holder's own value: a Node Buffer's toJSON runs before the replacer sees `value`.
    const raw = this[key]
    if (raw instanceof Uint8Array) {
      chunks.push(raw)
      return { $bin: chunks.length - 1 } satisfies BinaryRef
    }
    return value
  })
  if (chunks.length === 0) return json
  const header = textEncoder.encode(JSON.stringify({ m: JSON.parse(json) as unknown, b: chunks.map((c) => c.length) }))
  const head = new Uint8Array(4 + header.length)
  new DataView(head.buffer).setUint32(0, header.length)
  head.set(header, 4)
  return [head, ...chunks]
}

/** A frame's parts (encodeFrameParts) as one frame, for a transport that sends whole messages. */
export function joinFrame(parts: string | Uint8Array | readonly Uint8Array[]): string | Uint8Array {
  if (typeof parts === 'string' || parts instanceof Uint8Array) return parts
  if (parts.length === 1) return parts[0] as Uint8Array
  const frame = new Uint8Array(frameLength(parts))
  let offset = 0
  for (const part of parts) {
    frame.set(part, offset)
    offset += part.length
  }
  return frame
}

/** The bytes a frame's parts add up to. */
export function frameLength(parts: string | Uint8Array | readonly Uint8Array[]): number {
  if (typeof parts === 'string' || parts instanceof Uint8Array) return parts.length
  return parts.reduce((total, part) => total + part.length, 0)
}

export class FrameError extends Error {
  override name = 'FrameError'
}

/**
 * The message in a frame. Throws FrameError when the frame is malformed. Its byte chunks are
 * copies unless `views`: a page's frames are its own (a WebSocket message's fresh ArrayBuffer, or
 * a view into a downlink read), so it takes views and terminal output reaches xterm uncopied.
 */
export function decodeFrame(frame: string | Uint8Array, views = false): unknown {
  if (typeof frame === 'string') {
    try {
      return JSON.parse(frame) as unknown
    } catch {
      throw new FrameError('text frame is not JSON')
    }
  }
  if (frame.length < 4) throw new FrameError('binary frame shorter than its header length')
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength)
  const headerLength = view.getUint32(0)
  if (4 + headerLength > frame.length) throw new FrameError('binary frame header runs past the frame')
  let header: unknown
  try {
    header = JSON.parse(textDecoder.decode(frame.subarray(4, 4 + headerLength)))
  } catch {
    throw new FrameError('binary frame header is not JSON')
  }
  const lengths = (header as { b?: unknown }).b
  if (!Array.isArray(lengths) || !lengths.every((n) => Number.isInteger(n) && (n as number) >= 0)) {
    throw new FrameError('binary frame header has no chunk lengths')
  }
  const chunks: Uint8Array[] = []
  let offset = 4 + headerLength
  for (const length of lengths as number[]) {
    if (offset + length > frame.length) throw new FrameError('binary frame chunk runs past the frame')
    // A copy unless asked otherwise: the receiver may keep the bytes while the frame's buffer is reused.
    chunks.push(views ? frame.subarray(offset, offset + length) : frame.slice(offset, offset + length))
    offset += length
  }
  if (offset !== frame.length) throw new FrameError('binary frame has trailing bytes')
  return revive((header as { m?: unknown }).m, chunks)
}

function revive(value: unknown, chunks: Uint8Array[]): unknown {
  if (isBinaryRef(value)) {
    const chunk = chunks[value.$bin]
    if (!chunk) throw new FrameError('binary frame refers to a missing chunk')
    return chunk
  }
  if (Array.isArray(value)) return value.map((item) => revive(item, chunks))
  if (typeof value === 'object' && value !== null) {
    // fromEntries defines own properties: a "__proto__" key from the wire stays a plain key and
    // never becomes the object's prototype (as `out[key] = …` would make it).
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, revive(item, chunks)]))
  }
  return value
}

export function isClientMessage(value: unknown): value is ClientMessage {
  if (typeof value !== 'object' || value === null) return false
  if ((value as { t?: unknown }).t === 'no-downlink') return true
  if ((value as { t?: unknown }).t === 'notice') return typeof (value as Partial<NoticeMessage>).notice === 'string'
  const message = value as Partial<InvokeMessage>
  return message.t === 'invoke' && Number.isSafeInteger(message.id) && typeof message.command === 'string'
}

export function isServerMessage(value: unknown): value is ServerMessage {
  if (typeof value !== 'object' || value === null) return false
  const message = value as { t?: unknown; id?: unknown; event?: unknown; clientId?: unknown; result?: unknown; downlink?: unknown }
  switch (message.t) {
    case 'hello':
      return typeof message.clientId === 'string' && (message.downlink === undefined || typeof message.downlink === 'string')
    case 'result':
      return typeof message.id === 'number' && typeof message.result === 'object' && message.result !== null
    case 'event':
      return typeof message.event === 'string'
    default:
      return false
  }
}
