/**
 * Calls `run` at most once per `intervalMs`, always with the latest arguments, and once more
 * after the last call (so the final size of a window drag is the one sent).
 */
export interface Throttled<A extends unknown[]> {
  (...args: A): void
  cancel(): void
  /** Runs a waiting call now (what must reach the other side before something else does). */
  flush(): void
}

export function throttle<A extends unknown[]>(
  run: (...args: A) => void,
  intervalMs: number,
  timers: { now(): number; setTimeout(fn: () => void, ms: number): unknown; clearTimeout(handle: unknown): void } = {
    now: () => Date.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>)
  }
): Throttled<A> {
  let last = -Infinity
  let pending: A | undefined
  let timer: unknown
  const fire = (): void => {
    timer = undefined
    if (!pending) return
    const args = pending
    pending = undefined
    last = timers.now()
    run(...args)
  }
  const throttled = ((...args: A) => {
    pending = args
    const wait = last + intervalMs - timers.now()
    if (wait <= 0 && timer === undefined) fire()
    else if (timer === undefined) timer = timers.setTimeout(fire, Math.max(0, wait))
  }) as Throttled<A>
  throttled.cancel = () => {
    if (timer !== undefined) timers.clearTimeout(timer)
    timer = undefined
    pending = undefined
  }
  throttled.flush = () => {
    if (timer !== undefined) timers.clearTimeout(timer)
    fire()
  }
  return throttled
}
