/**
 * Flow control between the SSH channel and the renderer, as a small state machine. Main counts
 * every byte it takes from the channel until the renderer acknowledges that xterm parsed it.
 * Above the high watermark the channel is paused (ssh2 then stops widening the SSH window, so
 * the server stops sending); below the low watermark it resumes. The gap between the two keeps
 * it from flapping on every ack.
 */
export const HIGH_WATERMARK = 256 * 1024
export const LOW_WATERMARK = 32 * 1024

export type FlowAction = 'pause' | 'resume' | 'none'

export class FlowControl {
  private unacked = 0
  private paused = false
  /** The most main ever held unacknowledged (for tests and benchmarks). */
  peak = 0

  constructor(
    readonly high = HIGH_WATERMARK,
    readonly low = LOW_WATERMARK
  ) {
    if (low >= high) throw new Error('low watermark must be below the high watermark')
  }

  get unacknowledged(): number {
    return this.unacked
  }

  get isPaused(): boolean {
    return this.paused
  }

  /** Bytes taken from the channel. */
  received(bytes: number): FlowAction {
    this.unacked += bytes
    if (this.unacked > this.peak) this.peak = this.unacked
    if (!this.paused && this.unacked > this.high) {
      this.paused = true
      return 'pause'
    }
    return 'none'
  }

  /** Bytes the renderer reports parsed. More than outstanding is clamped (a confused renderer must not unlock the flood). */
  acknowledged(bytes: number): FlowAction {
    if (!(bytes > 0)) return 'none'
    this.unacked = Math.max(0, this.unacked - Math.floor(bytes))
    if (this.paused && this.unacked < this.low) {
      this.paused = false
      return 'resume'
    }
    return 'none'
  }
}
