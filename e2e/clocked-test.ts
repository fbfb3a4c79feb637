/**
 * The web fixture with simulated time: the core and the Sandbox share a ManualClock, and `tick`
 * moves it in 5 s steps, letting loopback requests finish between them (the watcher's and the
 * stock watch's minutes pass without waiting for them).
 */
import { ManualClock } from '../src/shared/clock'
import { test as base } from './web-fixture'

export const clockedTest = base.extend<{ clock: ManualClock; tick: (ms: number) => Promise<void> }>({
  clock: async ({}, use) => {
    await use(new ManualClock(Date.now()))
  },
  shellOptions: async ({ clock }, use) => {
    await use({ emulator: { bootMs: 1500, stopMs: 500, volumeReadyMs: 500 }, clock })
  },
  tick: async ({ clock }, use) => {
    const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20))
    await use(async (ms) => {
      for (let done = 0; done < ms; done += 5_000) await clock.advanceAsync(Math.min(5_000, ms - done), settle)
    })
  }
})
