/** Storage volumes: list, and create exactly once even when an answer is lost (volume-create-once.ts). */
import type { CommandGroup, CoreServices } from '../core-types'
import { createVolumeOnce } from './volume-create-once'

export function volumeCommands(services: CoreServices): CommandGroup {
  const creator = createVolumeOnce()
  return {
    handlers: {
      'volumes.list': (pager) => services.cloud().listVolumes(pager),
      'volumes.create': async (request) => (await creator.create(services.cloud(), request)).volume
    }
  }
}
