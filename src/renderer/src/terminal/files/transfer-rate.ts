/**
 * Speed and time left of a transfer, from samples of bytes done over time: the average over the
 * last few seconds (a single slow moment does not make the estimate jump), nothing until there
 * is enough to say.
 */
export const RATE_WINDOW_MS = 5_000
const MIN_SPAN_MS = 500

export class RateMeter {
  private readonly samples: { at: number; bytes: number }[] = []

  /** Records `bytes` done at time `at` (ms, any monotonic clock). */
  sample(at: number, bytes: number): void {
    this.samples.push({ at, bytes })
    while (this.samples.length > 2 && at - this.samples[1]!.at >= RATE_WINDOW_MS) this.samples.shift()
  }

  /** Bytes per second, or undefined until half a second has been seen. */
  speed(): number | undefined {
    const first = this.samples[0]
    const last = this.samples.at(-1)
    if (!first || !last || last.at - first.at < MIN_SPAN_MS) return undefined
    return ((last.bytes - first.bytes) * 1000) / (last.at - first.at)
  }

  /** Milliseconds left for `total` bytes, or undefined while the speed is unknown or zero. */
  remaining(total: number): number | undefined {
    const speed = this.speed()
    const last = this.samples.at(-1)
    if (!speed || !last || speed <= 0) return undefined
    return ((total - last.bytes) * 1000) / speed
  }
}
