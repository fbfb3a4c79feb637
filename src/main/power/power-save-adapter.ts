/**
 * Electron's powerSaveBlocker as the Platform's `keepAwake` (power/keep-awake.ts decides when):
 * `prevent-app-suspension` from the first transfer to the end of the last. That is the idle
 * sleep an app may hold off; the display may still sleep, and closing the lid still suspends.
 */
import { powerSaveBlocker } from 'electron'

/** What this uses of Electron's powerSaveBlocker (a fake in tests). */
export interface PowerSaveBlockerLike {
  start(type: 'prevent-app-suspension'): number
  stop(id: number): unknown
  isStarted(id: number): boolean
}

/** The Platform's keepAwake over the blocker: started once, stopped once; a refusal is logged, never thrown into a transfer. */
export function createKeepAwake(log: (line: string) => void, blocker: PowerSaveBlockerLike = powerSaveBlocker): (hold: boolean) => void {
  let held: number | undefined
  return (hold) => {
    try {
      if (hold) {
        if (held !== undefined && blocker.isStarted(held)) return
        held = blocker.start('prevent-app-suspension')
        log('keeping the computer awake: a file transfer is running')
      } else if (held !== undefined) {
        const id = held
        held = undefined
        if (blocker.isStarted(id)) blocker.stop(id)
        log('the computer may sleep again: no file transfer is running')
      }
    } catch (error) {
      log(`keeping the computer awake: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}
