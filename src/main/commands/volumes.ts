/** Storage volumes: list and create, straight through the cloud client. */
import type { CommandGroup, CoreServices } from '../core-types'

export function volumeCommands(services: CoreServices): CommandGroup {
  return {
    handlers: {
      'volumes.list': (pager) => services.cloud().listVolumes(pager),
      'volumes.create': (request) => services.cloud().createVolume(request)
    }
  }
}
