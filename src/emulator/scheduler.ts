/**
 * Emulator time and the jobs that run on it (lifecycle steps, volumes becoming Available,
 * scheduled stops). Emulator time is `clock.now() + offset`; `advance(ms)` moves the offset so
 * a test can jump a whole boot or a token's lifetime without sleeping, and the same jobs run
 * whether time passes on the clock or by advance. One clock timer is armed for the earliest job.
 */
import type { Clock, TimerHandle } from '../shared/clock'

interface Job {
  at: number
  seq: number
  key: string
  run: () => void
}

export class Scheduler {
  private offset = 0
  private seq = 0
  private readonly jobs = new Map<string, Job>()
  private armed: { handle: TimerHandle; at: number } | undefined
  private closed = false
  /** While a job runs: its due time, so work it schedules counts from when it was due, not from now. */
  private runningAt: number | undefined

  constructor(
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void = () => {}
  ) {}

  now(): number {
    return this.runningAt ?? this.clock.now() + this.offset
  }

  /** Schedules `run` at emulator time `at`, replacing any job under the same key. */
  at(key: string, at: number, run: () => void): void {
    this.jobs.set(key, { at, seq: this.seq++, key, run })
    this.arm()
  }

  cancel(key: string): void {
    this.jobs.delete(key)
  }

  has(key: string): boolean {
    return this.jobs.has(key)
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance needs a finite, non-negative number of ms')
    this.offset += ms
    this.runDue()
  }

  /** Runs every job due by now, in time order; jobs a job schedules run too if already due. */
  runDue(): void {
    // Bounded: each pass removes a job; a job that keeps rescheduling itself in the past would
    // otherwise spin, so cap the passes at a generous multiple of the queue.
    let budget = this.jobs.size * 10 + 100
    while (budget-- > 0) {
      const now = this.clock.now() + this.offset
      let next: Job | undefined
      for (const job of this.jobs.values()) {
        if (job.at <= now && (!next || job.at < next.at || (job.at === next.at && job.seq < next.seq))) next = job
      }
      if (!next) break
      this.jobs.delete(next.key)
      this.runningAt = next.at
      try {
        next.run()
      } catch (error) {
        this.onError(error)
      } finally {
        this.runningAt = undefined
      }
    }
    this.arm()
  }

  close(): void {
    this.closed = true
    if (this.armed) this.clock.clearTimeout(this.armed.handle)
    this.armed = undefined
    this.jobs.clear()
  }

  private arm(): void {
    if (this.closed) return
    let earliest: number | undefined
    for (const job of this.jobs.values()) if (earliest === undefined || job.at < earliest) earliest = job.at
    if (this.armed && this.armed.at === earliest) return
    if (this.armed) this.clock.clearTimeout(this.armed.handle)
    this.armed = undefined
    if (earliest === undefined) return
    const handle = this.clock.setTimeout(
      () => {
        this.armed = undefined
        this.runDue()
      },
      Math.max(0, earliest - (this.clock.now() + this.offset))
    )
    this.armed = { handle, at: earliest }
  }
}
