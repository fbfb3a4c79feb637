/**
 * Output on its way into a pane's xterm: straight through while the pane is on screen, paced
 * while it is not. A tab in the background still parses what its shell prints (the scrollback
 * must be there when it is shown), but xterm parses a write in slices of up to ~12 ms of the
 * page's one main thread, and a background flood parsed at full speed made the tab the user is
 * typing into wait behind those slices (bench/typing-latency.ts, under a flood in another tab).
 * Paced, a background pane gets BACKGROUND_BYTES per BACKGROUND_TICK_MS (about 1 MB/s), cut into
 * writes of at most that much: xterm parses one write in one go, and what a write costs depends on
 * its lines, not its bytes. 64 KiB of `yes` is 21,000 lines, and a trace of the typing benchmark
 * showed each such tick taking 15–21 ms of the page's thread, every second frame: the echo of a
 * key in the shown tab waited behind it. 16 KiB is ~4 ms at worst. Since acks follow parsing,
 * main's flow control holds the background shell back to this pace. Shown again, everything
 * waiting is written at once, in order.
 */
import type { Clock } from '../../../shared/clock'

export const BACKGROUND_BYTES = 16 * 1024
export const BACKGROUND_TICK_MS = 16

/** A write for xterm: bytes from main (acknowledged once parsed) or a line of our own, made when written. */
export type PaneOutput = { bytes: Uint8Array } | { line: () => string }

export class PacedOutput {
  private readonly waiting: PaneOutput[] = []
  private timer: ReturnType<Clock['setTimeout']> | undefined
  /** Off screen until its view says otherwise (a pane is made before it is shown). */
  private shown = false

  constructor(
    private readonly write: (output: PaneOutput) => void,
    private readonly clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>
  ) {}

  push(output: PaneOutput): void {
    if (this.shown && this.waiting.length === 0) return this.write(output)
    this.waiting.push(output)
    if (this.shown) this.drain(Number.POSITIVE_INFINITY)
    else this.schedule()
  }

  /** The pane came on screen (everything waiting is written now) or left it. */
  setShown(shown: boolean): void {
    this.shown = shown
    if (shown) {
      this.clock.clearTimeout(this.timer)
      this.timer = undefined
      this.drain(Number.POSITIVE_INFINITY)
    } else if (this.waiting.length > 0) this.schedule()
  }

  /** Bytes waiting (for tests). */
  get waitingBytes(): number {
    return this.waiting.reduce((total, output) => total + ('bytes' in output ? output.bytes.length : 0), 0)
  }

  dispose(): void {
    this.clock.clearTimeout(this.timer)
    this.timer = undefined
    this.waiting.length = 0
  }

  private schedule(): void {
    if (this.timer !== undefined) return
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined
      this.drain(BACKGROUND_BYTES)
      if (this.waiting.length > 0 && !this.shown) this.schedule()
    }, BACKGROUND_TICK_MS)
  }

  /** Writes waiting output in order, up to `budget` bytes; bytes beyond it wait for the next tick (views, not copies). */
  private drain(budget: number): void {
    let written = 0
    while (this.waiting.length > 0 && written < budget) {
      const output = this.waiting[0] as PaneOutput
      if ('bytes' in output && output.bytes.length > budget - written) {
        const room = budget - written
        this.waiting[0] = { bytes: output.bytes.subarray(room) }
        written += room
        this.write({ bytes: output.bytes.subarray(0, room) })
        continue
      }
      this.waiting.shift()
      if ('bytes' in output) written += output.bytes.length
      this.write(output)
    }
  }
}
