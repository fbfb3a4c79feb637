/**
 * Flow control between the SSH channel and the renderer, as a small state machine. Main counts
 * every byte it takes from the channel until the renderer acknowledges that xterm parsed it
 * (one ack per parse slice, parsed-acks.ts), and pauses the channel while the window is full.
 *
 * The window is sized, while it runs, to keep xterm busy and no busier:
 * - it resumes the channel as soon as half the window is parsed, not at the end of it, so the
 *   refill crosses main, the transport and the link while xterm still parses (and draws) the
 *   other half;
 * - an ack that leaves (nearly) nothing owed after a pause means xterm ran dry before the refill
 *   arrived: the window was shorter than the round trip of an ack at xterm's pace, so it grows;
 * - an ack that still leaves more than the window's half owed means bytes wait in the page's
 *   queue: the window is longer than needed, so it shrinks a little. Those waiting bytes are
 *   what stands between a Ctrl-C and its echo.
 * - and it never holds more than a Ctrl-C's budget of output: that is how long the echo of a
 *   Ctrl-C may wait behind it. Where the renderer reports how long xterm took to parse what it
 *   acknowledges (the window's renderer does, parsed-acks.ts), the budget is PARSE_BUDGET_MS of
 *   xterm's parse speed: ~750 KiB of 58-character lines, ~60 KiB of `yes`'s 2-byte ones (a line
 *   costs more than its bytes). Otherwise (a command line's consumer) it is
 *   CTRL_C_BUDGET_MS at the rate acknowledged during the last flood. That rate is the wrong
 *   measure where the renderer can tell: it is what the window let through, so a window that
 *   left xterm waiting for its refills measured a low rate and was kept small by it. The bench
 *   measured 0.46–0.51 of xterm alone that way, 0.66–0.79 sized by the parse speed. (Where the
 *   transport itself is slow, a window grown only to keep xterm fed measured 1 MiB in flight at
 *   4.5 MB/s: 230 ms before the ^C showed; hence a budget, not just growth.)
 * It settles near xterm's parse rate times that round trip, within the bounds.
 *
 * A fixed window with a low resume mark (256 KiB, resumed below 32 KiB) did neither: xterm
 * idled while each refill made its round trip, and the bench measured 0.41 of xterm alone.
 */
export interface ParseWindowBounds {
  /** The window before any flood taught it better. */
  initial: number
  min: number
  max: number
}

/**
 * 1 MiB at most: at a slow page's 10 MB/s, 100 ms of parsing ahead of a Ctrl-C. 32 KiB at least:
 * the budget's share of `yes`, whose 2-byte lines xterm parses at ~2.5 MB/s (a 128 KiB floor
 * held 50 ms of them ahead of a Ctrl-C's echo).
 */
export const PARSE_WINDOW: ParseWindowBounds = { initial: 256 * 1024, min: 32 * 1024, max: 1024 * 1024 }

/**
 * How long a Ctrl-C's echo may wait behind the window, at the rate xterm last acknowledged (for
 * consumers that do not report parse time). Not all of the 100 ms the bench allows: ssh2's
 * read-ahead and the SSH receive window (read-ahead.ts, receive-window.ts) stand in line too, and
 * the key itself must cross the page, main and the link.
 */
export const CTRL_C_BUDGET_MS = 40
/**
 * The same budget in xterm's parse time, where the renderer reports it: less than
 * CTRL_C_BUDGET_MS because the page also draws frames while it parses (about 40 % of its thread
 * in a flood), so this much parsing takes ~40 ms of the page's time.
 */
export const PARSE_BUDGET_MS = 25
/**
 * What the SSH side (ssh2's read-ahead and the receive window, read-ahead.ts and
 * receive-window.ts) may hold beyond the page's window, in xterm's parse time: they refill the
 * window the moment it is acknowledged, and a few ms of parsing is enough for that on a short link.
 * Sized in bytes they held the same 64 + 128 KiB for every kind of output: a few ms of plain
 * lines, but ~75 ms of `yes` (the bench's Ctrl-C: p50 96–101 ms with them, 57–59 sized by speed).
 */
export const SSH_SIDE_BUDGET_MS = 5
/** Parse time a speed is measured over: a few of xterm's slices, so one slow one does not decide. */
const SPEED_SAMPLE_MS = 20
/** The rate is measured over periods at least this long, each with a pause in it (a flood, not typing). */
const RATE_PERIOD_MS = 200

/** Owed below this share of the window after a pause: xterm ran dry. */
const DRY_SHARE = 1 / 8
const GROW = 1.5
const SHRINK = 7 / 8

export type FlowAction = 'pause' | 'resume' | 'none'

export class FlowControl {
  private unacked = 0
  private paused = false
  /** Paused since xterm last ran dry: a dry run now means the refill came too late. */
  private pausedSinceDry = false
  private size: number
  /** Bytes per ms xterm acknowledged in the last flood's period; unknown before one. */
  private rate: number | undefined
  private period = { startedAt: Number.NaN, bytes: 0, paused: false }
  private lastAckAt = Number.NEGATIVE_INFINITY
  /** Bytes per ms of xterm's parse time in this flood (renderers that report it); unknown before one, and after a quiet gap. */
  private parseSpeed: number | undefined
  /** The consumer reports parse time (the window's renderer; a command line's consumer does not). */
  private reportsParseTime = false
  private speedSample = { bytes: 0, ms: 0 }
  /** The most main ever held unacknowledged (for tests and benchmarks). */
  peak = 0

  constructor(
    readonly bounds: ParseWindowBounds = PARSE_WINDOW,
    private readonly now: () => number = () => Date.now()
  ) {
    if (!(bounds.min > 0 && bounds.min <= bounds.initial && bounds.initial <= bounds.max)) {
      throw new Error('the parse window needs 0 < min ≤ initial ≤ max')
    }
    this.size = bounds.initial
  }

  get unacknowledged(): number {
    return this.unacked
  }

  get isPaused(): boolean {
    return this.paused
  }

  /**
   * xterm's parse speed in this flood, bytes per ms (the window and the SSH side's buffers are
   * sized by it): unknown until ~20 ms of it were parsed, and forgotten after a quiet gap. The
   * next command's output then starts at the defaults, not at the last one's pace: a `yes` speed
   * (~15× slower than plain lines) kept the buffers small for the next flood until it was measured
   * again, and the bench's plain-line floods after `yes` moved 0.08–0.17 less of xterm alone's rate.
   */
  get speed(): number | undefined {
    return this.parseSpeed
  }

  /** How much may be unacknowledged now. */
  get window(): number {
    return this.size
  }

  /** Bytes taken from the channel. */
  received(bytes: number): FlowAction {
    this.unacked += bytes
    if (this.unacked > this.peak) this.peak = this.unacked
    if (!this.paused && this.unacked >= this.size) {
      this.paused = true
      this.pausedSinceDry = true
      this.period.paused = true
      return 'pause'
    }
    return 'none'
  }

  /**
   * Bytes the renderer reports parsed, and the time xterm took to parse them when it says. More
   * than outstanding is clamped (a confused renderer must not unlock the flood).
   */
  acknowledged(bytes: number, parseMs?: number): FlowAction {
    if (!(bytes > 0)) return 'none'
    const parsed = Math.min(this.unacked, Math.floor(bytes))
    this.unacked -= parsed
    this.measure(parsed)
    if (parseMs !== undefined) this.reportsParseTime = true
    // Only during a flood (paused): an echo's few bytes cost a write's fixed overhead, not a speed.
    if (parseMs !== undefined && this.paused) this.measureSpeed(parsed, parseMs)
    const resume = this.paused && this.unacked <= this.size / 2
    if (this.unacked <= this.size * DRY_SHARE) {
      if (this.pausedSinceDry) this.size = Math.min(this.cap(), Math.round(this.size * GROW))
      this.pausedSinceDry = false
    } else if (this.unacked > this.size / 2) {
      this.size = Math.max(this.bounds.min, Math.round(this.size * SHRINK))
    }
    this.size = Math.max(this.bounds.min, Math.min(this.size, this.cap()))
    if (resume) {
      this.paused = false
      return 'resume'
    }
    return 'none'
  }

  /**
   * The largest window now: the bound, and no more than a Ctrl-C's budget at xterm's parse speed
   * (only the bound while a new flood's is measured), or for consumers that do not report it, at
   * the last flood's rate.
   */
  private cap(): number {
    if (this.parseSpeed !== undefined) return Math.min(this.bounds.max, Math.round(this.parseSpeed * PARSE_BUDGET_MS))
    if (this.reportsParseTime) return this.bounds.max
    return this.rate === undefined ? this.bounds.max : Math.min(this.bounds.max, Math.round(this.rate * CTRL_C_BUDGET_MS))
  }

  /** xterm's parse speed, over samples of SPEED_SAMPLE_MS of parsing. */
  private measureSpeed(parsed: number, ms: number): void {
    if (!(ms >= 0)) return
    this.speedSample.bytes += parsed
    this.speedSample.ms += ms
    if (this.speedSample.ms < SPEED_SAMPLE_MS) return
    this.parseSpeed = this.speedSample.bytes / this.speedSample.ms
    this.speedSample = { bytes: 0, ms: 0 }
  }

  /** The acknowledged rate, over periods of RATE_PERIOD_MS that saw a pause, without a quiet gap. */
  private measure(parsed: number): void {
    const at = this.now()
    const quiet = at - this.lastAckAt > RATE_PERIOD_MS
    this.lastAckAt = at
    // After a quiet gap the period starts at this ack: its bytes were parsed over a time unknown here.
    if (quiet) {
      this.period = { startedAt: at, bytes: 0, paused: this.paused }
      this.parseSpeed = undefined
      this.speedSample = { bytes: 0, ms: 0 }
      return
    }
    this.period.bytes += parsed
    const elapsed = at - this.period.startedAt
    if (elapsed < RATE_PERIOD_MS) return
    if (this.period.paused) this.rate = this.period.bytes / elapsed
    this.period = { startedAt: at, bytes: 0, paused: this.paused }
  }
}
