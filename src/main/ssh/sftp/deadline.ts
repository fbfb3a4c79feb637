/**
 * A time limit over many waits, on the app's clock (a download's walk: thousands of requests).
 * Racing each wait against one promise that rejects at the limit would keep every settled race,
 * and the answer it carried, hooked to that promise until the limit; here each wait unhooks
 * itself once it settles.
 */
import type { Clock, TimerHandle } from '../../../shared/clock'

export class Deadline {
  private error: Error | undefined
  private readonly waits = new Set<(error: Error) => void>()
  private readonly timer: TimerHandle

  /** Passes `ms` from now; `why` is asked then, so its words can say how far the work got. */
  constructor(
    private readonly clock: Clock,
    ms: number,
    why: () => Error
  ) {
    this.timer = clock.setTimeout(() => {
      this.error = why()
      for (const stop of this.waits) stop(this.error)
      this.waits.clear()
    }, ms)
  }

  /** The error it passed with, once it has passed. */
  get passed(): Error | undefined {
    return this.error
  }

  /** `work`'s outcome, or the deadline's error when it passes first (`work` is then left to itself). */
  within<T>(work: Promise<T>): Promise<T> {
    if (this.error) {
      work.catch(() => undefined)
      return Promise.reject(this.error)
    }
    return new Promise<T>((resolve, reject) => {
      this.waits.add(reject)
      work.then(resolve, reject).finally(() => this.waits.delete(reject))
    })
  }

  /** The work ended in time: the timer goes. */
  clear(): void {
    this.clock.clearTimeout(this.timer)
  }
}
