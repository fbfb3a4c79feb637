/**
 * The web fixture with simulated time: the core and the Sandbox share a ManualClock, and `tick`
 * moves it in 5 s steps, letting loopback requests finish between them (the watcher's and the
 * stock watch's minutes pass without waiting for them).
 */
import { ManualClock } from '../src/shared/clock'
import { FAST_EMULATOR, test as base } from './web-fixture'

/** Moves `clock` on by `ms` in steps of `stepMs`, letting loopback requests finish between them. */
export async function advanceClock(clock: ManualClock, ms: number, stepMs = 5_000): Promise<void> {
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20))
  for (let done = 0; done < ms; done += stepMs) await clock.advanceAsync(Math.min(stepMs, ms - done), settle)
}

export const clockedTest = base.extend<{ clock: ManualClock; tick: (ms: number) => Promise<void> }>({
  clock: async ({}, use) => {
    await use(new ManualClock(Date.now()))
  },
  shellOptions: async ({ clock }, use) => {
    await use({ emulator: FAST_EMULATOR, clock })
  },
  tick: async ({ clock }, use) => {
    await use((ms) => advanceClock(clock, ms))
  }
})
