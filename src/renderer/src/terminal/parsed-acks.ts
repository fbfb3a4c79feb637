/**
 * Acknowledgements of terminal bytes xterm has parsed, one per parse slice instead of one per
 * write. xterm parses its queued writes back to back inside one task (up to ~12 ms) and calls
 * each write's callback there; the sum goes out in a microtask, i.e. right after that task, so
 * no byte is acknowledged before it is parsed and none later than the slice it was parsed in.
 * A flood then costs main and the transport one ack message per slice, not one per 64 KiB batch.
 *
 * Each ack also says how long xterm spent parsing those bytes (`parseMs`). Main sizes its window
 * by that speed (flow-control.ts): what xterm can take, which the rate it was fed cannot tell
 * while the page waits for bytes.
 */
export class ParsedAcks {
  private pending = 0
  private pendingMs = 0
  private queued = false

  constructor(
    private readonly send: (bytes: number, parseMs: number) => void,
    // A wrapper, not queueMicrotask itself: called as a method, the browser's throws "Illegal invocation".
    private readonly schedule: (flush: () => void) => void = (flush) => queueMicrotask(flush)
  ) {}

  /** Called from a write callback: `bytes` of that write are parsed now, in `ms`. */
  parsed(bytes: number, ms: number): void {
    this.pending += bytes
    this.pendingMs += ms
    if (this.queued) return
    this.queued = true
    this.schedule(() => this.flush())
  }

  private flush(): void {
    this.queued = false
    const bytes = this.pending
    const ms = this.pendingMs
    this.pending = 0
    this.pendingMs = 0
    if (bytes > 0) this.send(bytes, ms)
  }
}
