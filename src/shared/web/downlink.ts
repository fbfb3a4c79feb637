/**
 * The web shell's downlink: main → page messages over one streamed HTTP response instead of
 * WebSocket messages. The page still sends on the WebSocket; it offers DOWNLINK_OFFER as a
 * subprotocol, gets a single-use token in `hello`, and fetches DOWNLINK_PATH with that token in
 * DOWNLINK_HEADER. From then on every result and event for that page comes down the response.
 * A page that cannot open it says `no-downlink` on the socket and gets everything there instead.
 *
 * Why: in Chromium each WebSocket message crosses the network service and a small data pipe on
 * its own, a few milliseconds per round trip on a loaded machine, and terminal flow control
 * (256 KiB in flight, see src/main/ssh/data-path/flow-control.ts) waits for that round trip on every
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

/**
 * A record's 5-byte head and its body, kept apart so a 64 KiB terminal batch is not copied
 * again just to put five bytes in front of it (the server writes both in one corked write).
 */
export function encodeRecord(frame: string | Uint8Array): [head: Uint8Array, body: Uint8Array] {
  const body = typeof frame === 'string' ? textEncoder.encode(frame) : frame
  const head = new Uint8Array(HEAD)
  new DataView(head.buffer).setUint32(0, body.length + 1)
  head[4] = typeof frame === 'string' ? KIND_TEXT : KIND_BINARY
  return [head, body]
}

/**
 * Cuts the stream back into frames. Reads may end anywhere: inside a head, inside a frame, or
 * after several records; an incomplete record waits for the next read.
 */
export class DownlinkDecoder {
  private rest: Uint8Array = new Uint8Array(0)

  constructor(private readonly maxRecordBytes = 64 * 1024 * 1024) {}

  /** The frames completed by `chunk`, oldest first. Throws DownlinkError on a malformed record. */
  push(chunk: Uint8Array): (string | Uint8Array)[] {
    const bytes = this.rest.length === 0 ? chunk : concat(this.rest, chunk)
    const frames: (string | Uint8Array)[] = []
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    let offset = 0
    while (bytes.length - offset >= HEAD) {
      const length = view.getUint32(offset)
      if (length < 1 || length > this.maxRecordBytes) throw new DownlinkError(`record of ${length} bytes`)
      if (bytes.length - offset < 4 + length) break
      const kind = bytes[offset + 4]
      const body = bytes.subarray(offset + HEAD, offset + 4 + length)
      if (kind === KIND_TEXT) frames.push(textDecoder.decode(body))
      else if (kind === KIND_BINARY) frames.push(body)
      else throw new DownlinkError(`record of unknown kind ${String(kind)}`)
      offset += 4 + length
    }
    // Copy the tail: `chunk` belongs to the stream's reader, which may reuse it.
    this.rest = offset === bytes.length ? new Uint8Array(0) : bytes.slice(offset)
    return frames
  }

  /** Bytes of an unfinished record (the stream must not end with any). */
  get pendingBytes(): number {
    return this.rest.length
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}
