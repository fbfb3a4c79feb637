/**
 * Batches terminal bytes in main before they cross to the renderer: one message per 16 ms or
 * per 64 KiB, whichever comes first, because one IPC message per ssh2 packet (often a few
 * bytes) costs more than the bytes themselves. A batch never ends inside a UTF-8 sequence: the
 * incomplete tail waits for the next bytes (xterm decodes each message on its own).
 */
import type { Clock, TimerHandle } from '../../../shared/clock'
import { utf8SafeLength } from './utf8'

export interface BatcherOptions {
  clock: Clock
  /**
   * Called with each batch: a view, not a copy, over a channel's chunk or over the one buffer a
   * batch's chunks were joined into. Nothing here writes to either again (channels hand over a
   * fresh buffer per packet), so the receiver may keep it; only a short unfinished tail is copied,
   * so that it does not hold a 64 KiB buffer alive.
   */
  send: (batch: Uint8Array) => void
  maxDelayMs?: number
  maxBytes?: number
}

export const BATCH_DELAY_MS = 16
export const BATCH_MAX_BYTES = 64 * 1024

export class Utf8Batcher {
  private readonly clock: Clock
  private readonly sendBatch: (batch: Uint8Array) => void
  private readonly maxDelayMs: number
  private readonly maxBytes: number
  private chunks: Uint8Array[] = []
  private size = 0
  private timer: TimerHandle | undefined
  /** The timer is a 0 ms one (see push). */
  private timerSoon = false
  private closed = false

  constructor(options: BatcherOptions) {
    this.clock = options.clock
    this.sendBatch = options.send
    this.maxDelayMs = options.maxDelayMs ?? BATCH_DELAY_MS
    this.maxBytes = options.maxBytes ?? BATCH_MAX_BYTES
  }

  /** Bytes waiting (including an incomplete UTF-8 tail). */
  get pendingBytes(): number {
    return this.size
  }

  /**
   * Takes bytes; what does not fill a batch waits up to maxDelayMs for more, or with `soon` only
   * until the bytes already read have been handed over (a 0 ms timer: one batch per socket read).
   * In a flood a refill's tail must not wait 16 ms while xterm has nothing left to parse.
   */
  push(bytes: Uint8Array, soon = false): void {
    if (this.closed || bytes.length === 0) return
    this.chunks.push(bytes)
    this.size += bytes.length
    if (this.size >= this.maxBytes) this.flushFull()
    if (this.size === 0) return
    if (soon && this.timer !== undefined && !this.timerSoon) {
      this.clock.clearTimeout(this.timer)
      this.timer = undefined
    }
    if (this.timer === undefined) {
      this.timerSoon = soon
      this.timer = this.clock.setTimeout(
        () => {
          this.timer = undefined
          this.flush(false)
        },
        soon ? 0 : this.maxDelayMs
      )
    }
  }

  /** Sends what is waiting now; with `final`, also an incomplete tail (the stream ended). */
  flush(final = false): void {
    this.clock.clearTimeout(this.timer)
    this.timer = undefined
    if (this.size === 0) return
    const all = this.take()
    const cut = final ? all.length : utf8SafeLength(all)
    this.emitSlices(all.subarray(0, cut))
    this.keep(all.subarray(cut))
  }

  /** Drops everything and stops; later pushes are ignored. */
  close(): void {
    this.clock.clearTimeout(this.timer)
    this.timer = undefined
    this.chunks = []
    this.size = 0
    this.closed = true
  }

  /** Sends whole maxBytes batches (cut at character boundaries); keeps the remainder waiting. */
  private flushFull(): void {
    const all = this.take()
    let offset = 0
    while (all.length - offset >= this.maxBytes) {
      const cut = utf8SafeLength(all, offset + this.maxBytes)
      // A cut at offset would mean a 64 KiB run of continuation bytes: not UTF-8, send as is.
      const end = cut > offset ? cut : offset + this.maxBytes
      this.sendBatch(all.subarray(offset, end))
      offset = end
    }
    this.keep(all.subarray(offset))
  }

  private emitSlices(bytes: Uint8Array): void {
    for (let offset = 0; offset < bytes.length;) {
      const limit = Math.min(bytes.length, offset + this.maxBytes)
      const cut = limit === bytes.length ? limit : utf8SafeLength(bytes, limit)
      const end = cut > offset ? cut : limit
      this.sendBatch(bytes.subarray(offset, end))
      offset = end
    }
  }

  private take(): Uint8Array {
    const all = this.chunks.length === 1 ? (this.chunks[0] as Uint8Array) : Buffer.concat(this.chunks, this.size)
    this.chunks = []
    this.size = 0
    return all
  }

  private keep(rest: Uint8Array): void {
    if (rest.length === 0) return
    this.chunks = [rest.slice()]
    this.size = rest.length
  }
}
