/**
 * Waiting in tests without sleeping: `waitFor` settles once `check` holds after some event (the
 * harness calls `wake` on each), or rejects after a deadline saying what it waited for.
 */
export class Waiters {
  private readonly waiting = new Set<() => void>()

  wake(): void {
    for (const wake of [...this.waiting]) wake()
  }

  /** `explain` adds what was seen to the timeout's message. */
  waitFor(check: () => boolean, what: string, timeoutMs: number, explain: () => string = () => ''): Promise<void> {
    if (check()) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(wake)
        const seen = explain()
        reject(new Error(`timed out waiting for ${what}${seen ? `; ${seen}` : ''}`))
      }, timeoutMs)
      const wake = (): void => {
        if (!check()) return
        clearTimeout(timer)
        this.waiting.delete(wake)
        resolve()
      }
      this.waiting.add(wake)
    })
  }
}
