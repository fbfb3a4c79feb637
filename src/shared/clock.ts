/**
 * Time as a parameter. The watcher, the session's expiry timers and the emulator's lifecycle
 * take a Clock, so tests and benchmarks run hours of schedule in milliseconds and never sleep.
 */

export interface TimerHandle {
  readonly id: number
}

export interface Clock {
  now(): number
  setTimeout(callback: () => void, ms: number): TimerHandle
  clearTimeout(handle: TimerHandle | undefined): void
}

let nextSystemId = 1

/** The real clock. Timers are unref'd so a pending poll never keeps a CLI or test alive. */
export function systemClock(): Clock {
  const timers = new Map<number, ReturnType<typeof setTimeout>>()
  return {
    now: () => Date.now(),
    setTimeout(callback, ms) {
      const id = nextSystemId++
      const timer = setTimeout(() => {
        timers.delete(id)
        callback()
      }, ms)
      ;(timer as { unref?: () => void }).unref?.()
      timers.set(id, timer)
      return { id }
    },
    clearTimeout(handle) {
      if (!handle) return
      const timer = timers.get(handle.id)
      if (timer !== undefined) clearTimeout(timer)
      timers.delete(handle.id)
    }
  }
}

/**
 * A clock that moves only when told. `advance(ms)` runs due timers in time order, each seeing
 * `now()` at its own due time; `advanceAsync` also lets promises settle between timers.
 */
export class ManualClock implements Clock {
  private current: number
  private nextId = 1
  private readonly timers = new Map<number, { at: number; seq: number; callback: () => void }>()
  private seq = 0

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start
  }

  now(): number {
    return this.current
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.nextId++
    this.timers.set(id, { at: this.current + Math.max(0, ms), seq: this.seq++, callback })
    return { id }
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle) this.timers.delete(handle.id)
  }

  /** Number of timers waiting. */
  get pending(): number {
    return this.timers.size
  }

  /** Due time of the earliest timer, if any. */
  nextDueAt(): number | undefined {
    let best: number | undefined
    for (const timer of this.timers.values()) if (best === undefined || timer.at < best) best = timer.at
    return best
  }

  advance(ms: number): void {
    const target = this.current + ms
    for (;;) {
      const next = this.takeDue(target)
      if (!next) break
      this.current = next.at
      next.callback()
    }
    this.current = target
  }

  /** Like advance, but awaits a macrotask turn after each timer so async work it starts can finish. */
  async advanceAsync(ms: number, settle: () => Promise<void> = flushAsync): Promise<void> {
    const target = this.current + ms
    await settle()
    for (;;) {
      const next = this.takeDue(target)
      if (!next) break
      this.current = next.at
      next.callback()
      await settle()
    }
    this.current = target
  }

  private takeDue(target: number): { at: number; callback: () => void } | undefined {
    let bestId: number | undefined
    let best: { at: number; seq: number; callback: () => void } | undefined
    for (const [id, timer] of this.timers) {
      if (timer.at > target) continue
      if (!best || timer.at < best.at || (timer.at === best.at && timer.seq < best.seq)) {
        best = timer
        bestId = id
      }
    }
    if (bestId === undefined || !best) return undefined
    this.timers.delete(bestId)
    return best
  }
}

/** Lets pending promise callbacks and I/O callbacks run (one macrotask turn; works in Node and browsers). */
export function flushAsync(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
