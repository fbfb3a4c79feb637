/**
 * Main's one door into src/emulator (a lint wall in eslint.config.js keeps it the only one): the
 * Sandbox's emulator, what makes its instances reachable (real SSH servers, notebook pages, port
 * forwarders), and the key maker its SSH servers use. The account starts the Sandbox through it,
 * the desktop shell (index.ts) hands its reach to the core, and `npm run web` (src/web, which may
 * not import the emulator) does both the same way. Loaded on first use, so the emulator stays off
 * the start-up path while another profile is used.
 */
import type { Emulator, EmulatorOptions } from '../../emulator/index'
import type { ReachFactory } from '../../emulator/reach-types'

export type { Emulator, EmulatorControl, EmulatorOptions } from '../../emulator/index'
export type { ReachFactory } from '../../emulator/reach-types'
export { generateEd25519KeyPair } from '../../emulator/reach/host-key'

/** Starts the emulator in this process (the Sandbox profile's cloud). */
export async function startSandboxEmulator(options: EmulatorOptions): Promise<Emulator> {
  const { startEmulator } = await import('../../emulator/index')
  return startEmulator(options)
}

/** Real SSH servers, notebook pages and port forwarders for the Sandbox's instances, loaded when the Sandbox starts. */
export function sandboxReach(): ReachFactory {
  return async (context) => {
    const { createReach } = await import('../../emulator/reach/index')
    return createReach()(context)
  }
}
