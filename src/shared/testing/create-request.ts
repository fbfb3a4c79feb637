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

/**
 * Every part of a request beside the offer and the name, set: a volume, two ports, a data disk,
 * docker with its disk, common data, an init script. For tests that a launch carries each part
 * across (a template, Launch again, a relaunch after a reclaim).
 */
export const EVERY_PART = {
  remoteStorages: [{ mountPath: '/data', remoteStorageName: 'datasets', remoteStorageId: 'vol-123', type: 'filesystem' }],
  instanceConfiguration: {
    extraDataDiskSizeDB: 50,
    enableCommonData: true,
    enableDocker: true,
    dockerStorageSize: 20,
    initScript: 'pip install -r /data/req.txt\n'
  },
  nodePorts: [8888, 6006]
} satisfies Partial<CreateInstanceRequest>
