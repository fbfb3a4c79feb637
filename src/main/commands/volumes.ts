/** Storage volumes: list, and create exactly once even when an answer is lost (volume-create-once.ts). */
import type { CloudClient } from '../cloud/types'
import type { CommandGroup } from './dispatcher'
import { createVolumeOnce } from '../cloud/create-once/volume-create-once'

export interface VolumeServices {
  /** The session's cloud client; throws AppError `no-session` when signed out. */
  cloud(): CloudClient
}

export function volumeCommands(services: VolumeServices): CommandGroup<'volumes.list' | 'volumes.create'> {
  const creator = createVolumeOnce()
  return {
    handlers: {
      'volumes.list': (pager) => services.cloud().listVolumes(pager),
      'volumes.create': async (request) => (await creator.create(services.cloud(), request)).volume
    }
  }
}
