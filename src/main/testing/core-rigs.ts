/**
 * Core rigs a test opens, each closed when that test ends (passed or failed). `clocked` puts the
 * core and its emulator on one ManualClock the test moves, as the watch, reclaim and cost-guard
 * suites need. A file apart from core-harness.ts, which the benchmarks load without vitest.
 */
import { ManualClock } from '../../shared/clock'
import { closeAfterEach } from '../../shared/testing/close-after-each'
import type { EmulatorOptions } from '../../emulator/index'
import { createCoreRig, type CoreRig } from './core-harness'

export interface CoreRigs {
  open(options?: Parameters<typeof createCoreRig>[0]): Promise<CoreRig>
  clocked(emulator?: EmulatorOptions): Promise<{ rig: CoreRig; clock: ManualClock }>
}

/** Call at a suite's top level or in a describe block: it registers the teardown. */
export function coreRigsPerTest(): CoreRigs {
  const teardown = closeAfterEach<CoreRig>()
  return {
    open: async (options) => teardown.track(await createCoreRig(options)),
    async clocked(emulator = {}) {
      const clock = new ManualClock(Date.now())
      const rig = teardown.track(await createCoreRig({ emulator: { clock, ...emulator }, core: { clock } }))
      return { rig, clock }
    }
  }
}
