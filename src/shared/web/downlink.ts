/**
 * The web shell's downlink: main → page messages over one streamed HTTP response instead of
 * WebSocket messages. The page still sends on the WebSocket; it offers DOWNLINK_OFFER as a
 * subprotocol, gets a single-use token in `hello`, and fetches DOWNLINK_PATH with that token in
 * DOWNLINK_HEADER. From then on every result and event for that page comes down the response.
 * A page that cannot open it says `no-downlink` on the socket and gets everything there instead.
 *
 * Why: in Chromium each WebSocket message crosses the network service and a small data pipe on
 * its own, a few milliseconds per round trip on a loaded machine, and terminal flow control
 * (a window in flight, see src/main/ssh/data-path/flow-control.ts) waits for that round trip on every
 * refill. A fetch body arrives in large reads that may hold several messages, at about twice
 * the rate (measured with the same window: ~80 vs ~40 MB/s), and a read's messages reach xterm
 * in one task, so it parses them in one slice. Electron's IPC has neither cost; this is for
 * `npm run web` and the browser tests.
 *
 * A record on the stream is [u32 big-endian: length of what follows][u8 kind][frame], where the
 * frame is what ws-protocol.ts's encodeFrame made: kind 0 for a text frame (its UTF-8), 1 for a
 * binary frame.
 */

export const DOWNLINK_PATH = '/ws/downlink'
/** A custom header: a page on another origin cannot send it without a CORS preflight we never grant. */
export const DOWNLINK_HEADER = 'x-cloud-tray-downlink'
/** Offered next to WS_PROTOCOL by a page that wants its messages on the downlink. */
export const DOWNLINK_OFFER = 'cloud-tray.downlink'

const KIND_TEXT = 0
const KIND_BINARY = 1
const HEAD = 5

const textEncoder = new TextEncoder()
const textDecoder = new TextDecoder()

export class DownlinkError extends Error {
  override name = 'DownlinkError'
}

/** A frame, whole or as the parts encodeFrameParts (ws-protocol.ts) made of it. */
export type DownlinkFrame = string | Uint8Array | readonly Uint8Array[]

/**
 * A record's 5-byte head and its body's parts, kept apart so a 64 KiB terminal batch is not
 * copied again just to put a few bytes in front of it (the server writes them in one corked write).
 */
export function encodeRecord(frame: DownlinkFrame): Uint8Array[] {
  const body = typeof frame === 'string' ? [textEncoder.encode(frame)] : frame instanceof Uint8Array ? [frame] : [...frame]
  const head = new Uint8Array(HEAD)
  new DataView(head.buffer).setUint32(0, body.reduce((total, part) => total + part.length, 0) + 1)
  head[4] = typeof frame === 'string' ? KIND_TEXT : KIND_BINARY
  return [head, ...body]
}

/**
 * Cuts the stream back into frames. Reads may end anywhere: inside a head, inside a frame, or
 * after several records; an incomplete record waits for the next read. A frame that lies whole
 * in one read is a view into it (a stream reader hands each read over for good); only a record
 * cut across reads is joined, once, when its last part arrives.
 */
export class DownlinkDecoder {
  /** The reads (or their tails) holding the start of an unfinished record. */
  private parts: Uint8Array[] = []
  private partBytes = 0
  /** How many bytes the unfinished record needs in all (head included), once its head is known. */
  private needed = 0

  constructor(private readonly maxRecordBytes = 64 * 1024 * 1024) {}

  /** The frames completed by `chunk`, oldest first. Throws DownlinkError on a malformed record. */
  push(chunk: Uint8Array): (string | Uint8Array)[] {
    const frames: (string | Uint8Array)[] = []
    let bytes = chunk
    if (this.partBytes > 0) {
      this.parts.push(chunk)
      this.partBytes += chunk.length
      if (this.needed === 0 && this.partBytes >= HEAD) this.needed = recordLength(concat(this.parts, HEAD), this.maxRecordBytes)
      if (this.needed === 0 || this.partBytes < this.needed) return frames
      bytes = concat(this.parts, this.partBytes)
      this.parts = []
      this.partBytes = 0
      this.needed = 0
    }
    let offset = 0
    while (bytes.length - offset >= HEAD) {
      const total = recordLength(bytes.subarray(offset, offset + HEAD), this.maxRecordBytes)
      if (bytes.length - offset < total) break
      const kind = bytes[offset + 4]
      const body = bytes.subarray(offset + HEAD, offset + total)
      if (kind === KIND_TEXT) frames.push(textDecoder.decode(body))
      else if (kind === KIND_BINARY) frames.push(body)
      else throw new DownlinkError(`record of unknown kind ${String(kind)}`)
      offset += total
    }
    if (offset < bytes.length) {
      const tail = bytes.subarray(offset)
      this.parts = [tail]
      this.partBytes = tail.length
      this.needed = tail.length >= HEAD ? recordLength(tail, this.maxRecordBytes) : 0
    }
    return frames
  }

  /** Bytes of an unfinished record (the stream must not end with any). */
  get pendingBytes(): number {
    return this.partBytes
  }
}

/** A record's whole length, head included, from its first HEAD bytes. */
function recordLength(head: Uint8Array, maxRecordBytes: number): number {
  const length = new DataView(head.buffer, head.byteOffset, HEAD).getUint32(0)
  if (length < 1 || length > maxRecordBytes) throw new DownlinkError(`record of ${length} bytes`)
  return 4 + length
}

/** The first `bytes` bytes of `parts`, joined. */
function concat(parts: Uint8Array[], bytes: number): Uint8Array {
  const out = new Uint8Array(bytes)
  let offset = 0
  for (const part of parts) {
    if (offset >= bytes) break
    const take = part.subarray(0, bytes - offset)
    out.set(take, offset)
    offset += take.length
  }
  return out
}
