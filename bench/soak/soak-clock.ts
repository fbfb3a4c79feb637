/**
 * The soak's clock: emulated time for the core and the emulator (a day in minutes), with some
 * timers in real time. `now()` is always the emulated time. In real time: a timer under
 * REAL_BELOW_MS (the terminal batcher's 16 ms, a transfer's progress), so bytes flow between
 * steps, and an SSH connection's deadline, so a login over loopback is never timed out by the
 * emulated clock running ahead of it. Everything else (polls, probes and their deadline, rules,
 * backoffs) waits for the soak to step the emulated clock past it.
 */
import { ManualClock, systemClock, type Clock, type TimerHandle } from '../../src/shared/clock'
import { CONNECT_TIMEOUT_MS } from '../../src/main/ssh/links/connection'

export const REAL_BELOW_MS = 1_000
const IO_DEADLINES = new Set([CONNECT_TIMEOUT_MS])

export class SoakClock implements Clock {
  readonly manual: ManualClock
  private readonly real = systemClock()
  private readonly owners = new Map<number, { clock: Clock; handle: TimerHandle }>()
  private nextId = 1

  constructor(start: number) {
    this.manual = new ManualClock(start)
  }

  now(): number {
    return this.manual.now()
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.nextId++
    const clock: Clock = ms < REAL_BELOW_MS || IO_DEADLINES.has(ms) ? this.real : this.manual
    const handle = clock.setTimeout(() => {
      this.owners.delete(id)
      callback()
    }, ms)
    this.owners.set(id, { clock, handle })
    return { id }
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (!handle) return
    const owned = this.owners.get(handle.id)
    if (!owned) return
    owned.clock.clearTimeout(owned.handle)
    this.owners.delete(handle.id)
  }
}
