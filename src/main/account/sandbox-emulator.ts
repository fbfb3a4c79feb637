/**
 * The emulator (src/emulator) behind the Sandbox profile, as a shell without Electron starts it:
 * main is the layer that reaches into the emulator, so `npm run web` takes it from here. Loaded
 * on first use, keeping the emulator off the start-up path when another profile is used.
 */
import type { Emulator, EmulatorOptions } from '../../emulator/index'
import type { ReachFactory } from '../../emulator/reach-types'

export type { Emulator, EmulatorControl, EmulatorOptions } from '../../emulator/index'
export type { ReachFactory } from '../../emulator/reach-types'

export async function startSandboxEmulator(options: EmulatorOptions): Promise<Emulator> {
  const { startEmulator } = await import('../../emulator/index')
  return startEmulator(options)
}

/** Real SSH servers, notebook pages and port forwarders for the Sandbox's instances. */
export async function sandboxReach(): Promise<ReachFactory> {
  const { createReach } = await import('../../emulator/reach/index')
  return createReach()
}
