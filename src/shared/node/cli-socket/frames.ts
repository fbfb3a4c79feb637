/**
 * Frames on the command line's socket. A socket is a byte stream, so each message of
 * ../../web/ws-protocol.ts (the same messages the window's WebSocket carries, text or binary)
 * goes with a 5-byte header: its length (u32, big-endian) and whether it is text (0) or binary (1).
 */
export const FRAME_HEADER_BYTES = 5
const TEXT = 0
const BINARY = 1

/** One frame as bytes to write: the header and the payload (not copied). */
export function frameOf(frame: string | Uint8Array): [Buffer, Buffer] {
  const payload = typeof frame === 'string' ? Buffer.from(frame, 'utf8') : Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength)
  const header = Buffer.allocUnsafe(FRAME_HEADER_BYTES)
  header.writeUInt32BE(payload.length, 0)
  header.writeUInt8(typeof frame === 'string' ? TEXT : BINARY, 4)
  return [header, payload]
}

export class FrameTooLargeError extends Error {
  override name = 'FrameTooLargeError'
}

/**
 * Cuts a byte stream into frames. Chunks are kept as they come and joined once per frame, so a
 * large frame costs one copy however many reads it took.
 */
export class FrameReader {
  private chunks: Buffer[] = []
  private buffered = 0

  constructor(
    private readonly maxFrameBytes: number,
    private readonly onFrame: (frame: string | Uint8Array) => void
  ) {}

  /** Throws FrameTooLargeError (the stream should be dropped) on a frame over the limit or an unknown kind. */
  push(chunk: Buffer): void {
    this.chunks.push(chunk)
    this.buffered += chunk.length
    for (;;) {
      if (this.buffered < FRAME_HEADER_BYTES) return
      const head = this.peek(FRAME_HEADER_BYTES)
      const length = head.readUInt32BE(0)
      const kind = head.readUInt8(4)
      if (length > this.maxFrameBytes)
        throw new FrameTooLargeError(`a frame of ${length} bytes is over the ${this.maxFrameBytes}-byte limit`)
      if (kind !== TEXT && kind !== BINARY) throw new FrameTooLargeError(`unknown frame kind ${kind}`)
      if (this.buffered < FRAME_HEADER_BYTES + length) return
      const all = this.take(FRAME_HEADER_BYTES + length)
      const payload = all.subarray(FRAME_HEADER_BYTES)
      this.onFrame(kind === TEXT ? payload.toString('utf8') : new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength))
    }
  }

  private peek(bytes: number): Buffer {
    if (this.chunks[0]!.length >= bytes) return this.chunks[0]!
    const joined = Buffer.concat(this.chunks)
    this.chunks = [joined]
    return joined
  }

  private take(bytes: number): Buffer {
    const joined = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks)
    const rest = joined.subarray(bytes)
    this.chunks = rest.length > 0 ? [rest] : []
    this.buffered -= bytes
    return joined.subarray(0, bytes)
  }
}
