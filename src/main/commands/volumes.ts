/** Storage volumes: list and create, straight through the cloud client. */
import type { CloudClient } from '../cloud/types'
import type { CommandGroup } from './dispatcher'

export interface VolumeServices {
  /** The session's cloud client; throws AppError `no-session` when signed out. */
  cloud(): CloudClient
}

export function volumeCommands(services: VolumeServices): CommandGroup<'volumes.list' | 'volumes.create'> {
  return {
    handlers: {
      'volumes.list': (pager) => services.cloud().listVolumes(pager),
      'volumes.create': (request) => services.cloud().createVolume(request)
    }
  }
}
