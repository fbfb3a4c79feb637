/**
 * Instances shaped like the spec's, for unit tests and the render benchmark. Not used by the app.
 */
import type { Instance } from '../../../shared/api'

export function makeInstance(overrides: { id?: string; name?: string; status?: string; createdAt?: number } = {}): Instance {
  const id = overrides.id ?? 'notebook-00000000-0000-4000-8000-000000000001'
  return {
    instanceMetadata: { instanceAuth: { ownerUserName: 'demo' }, instanceId: id, instanceUsername: 'root' },
    instanceSpecInfo: {
      name: overrides.name ?? 'train-1',
      instanceBillingInfo: { chargeMode: 'perHour', duration: 1, price: 1.2, unit: '$', type: 'On-Demand' },
      imageInfo: { architecture: 'amd64', isPublic: 'true', name: 'pytorch-2.4', tags: ['cuda12'], type: 'public' },
      instanceConfiguration: {
        enableCommonData: false,
        enableDocker: true,
        InstanceDiskAmountRequest: { rootDiskAmountGiReq: 50, dataDiskAmountGiReq: 100 },
        dockerStorageSize: 20
      },
      instanceTypeInfo: {
        instanceId: 'gpu-a100-2',
        instanceTypeName: 'A100 × 2',
        cpu: { amount: 16, type: 'x86', unit: 'core' },
        memory: { amount: 128, type: 'ddr', unit: 'GB' },
        gpu: { amount: 2, type: 'A100', unit: 'card' },
        disk: { amount: 50, type: 'ssd', unit: 'GB' }
      },
      regionInfo: {
        domain: 'r1.example',
        location: 'Singapore',
        name: 'Singapore 1',
        sshAddress: '127.0.0.1',
        value: 'sg-1',
        regionId: 'sg-1'
      },
      remoteStorages: [],
      nodePorts: [
        { port: 22, address: '127.0.0.1', nodePort: 30022 },
        { port: 8080, address: '127.0.0.1', nodePort: 30080 }
      ],
      isSpotInstance: false
    },
    instanceRuntimeInfo: {
      createAtUnixMs: overrides.createdAt ?? Date.UTC(2026, 0, 1),
      status: overrides.status ?? 'Running',
      healthy: true,
      subUrl: '/notebook/1/',
      stopTimestamp: 0,
      scheduledStopTimestamp: 0
    }
  }
}

/** `count` instances with distinct ids and names, cycling through a few statuses. */
export function makeInstances(count: number): Instance[] {
  const statuses = ['Running', 'Stopped', 'Initializing', 'Running', 'StartingFailed']
  return Array.from({ length: count }, (_, i) =>
    makeInstance({
      id: `notebook-${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
      name: `inst-${String(i + 1).padStart(4, '0')}`,
      status: statuses[i % statuses.length]!,
      createdAt: Date.UTC(2026, 0, 1) - i * 60_000
    })
  )
}
