import { encodeRecord } from '../downlink'

/** Frames as the bytes of one downlink read (several records back to back), for tests. */
export function downlinkBytes(frames: (string | Uint8Array)[]): Uint8Array {
  const parts = frames.flatMap((frame) => encodeRecord(frame))
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}
