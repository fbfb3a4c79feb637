/**
 * Time for core tests against the emulator: the app's clock (and the emulator's) is a ManualClock
 * moved on by the test, while reads, creates and stops travel over real sockets. `pass` moves the
 * clock in steps, letting each step's socket work finish; `until` waits for a fact in real time,
 * and `passUntil` moves the clock until a fact holds (one that needs emulated time too: a stop
 * takes the emulator's stop time). Both are patient: on a loaded machine an answer over
 * loopback can take seconds, and a short budget made these tests fail for load alone. A fact
 * that never comes still fails the test.
 */
import type { ManualClock } from '../../shared/clock'

/** Lets what the last timer started (a read over a real socket, a create) go on. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 15))

/** Moves the app's clock on by `ms`, in steps of `step`, settling after each. */
export async function pass(clock: ManualClock, ms: number, step = 5_000): Promise<void> {
  for (let done = 0; done < ms; done += step) await clock.advanceAsync(Math.min(step, ms - done), settle)
}

/** Until `ready` holds, in real time: at most `tries` settles (10 s by default, under the test's 20 s). */
export async function until(ready: () => boolean | Promise<boolean>, tries = 650): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await ready()) return
    await settle()
  }
  throw new Error('waited too long')
}

/** Moves the clock on by `step` and settles, until `ready` holds: at most `tries` steps (10 s of real time by default). */
export async function passUntil(clock: ManualClock, ready: () => boolean, step = 1_000, tries = 650): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (ready()) return
    await clock.advanceAsync(step, settle)
  }
  throw new Error('waited too long')
}
