/**
 * A create request that passes every check (shared/create-request.ts), for tests that change one
 * field. It asks for what makeInstance (instance.ts) describes: its type, region and name.
 * Against the emulator, pass its catalogue's ids (src/emulator/testing/http-client.ts
 * emulatorCreateRequest does).
 */
import type { CreateInstanceRequest } from '../create-request'

export function validCreateRequest(overrides: Partial<CreateInstanceRequest> = {}): CreateInstanceRequest {
  return {
    name: 'train-1',
    imageId: 'img-1',
    instanceTypeId: 'gpu-a100-2',
    region: 'sg-1',
    billing: { chargeMode: 'perHour', duration: 1 },
    remoteStorages: [],
    instanceConfiguration: { enableCommonData: false, enableDocker: false, initScript: '' },
    nodePorts: [],
    ...overrides
  }
}
