/**
 * One instance shaped like the spec's (every field the API documents), for tests and benchmarks
 * in main, the emulator and the renderer. Never used by the app. Each test folder's helper is a
 * thin wrapper that sets what its tests care about.
 */
import type { Instance, NodePort } from '../api'

export interface InstanceOverrides {
  id?: string
  name?: string
  status?: string
  createdAt?: number
  /** instanceAuth.ownerUserName */
  owner?: string
  /** instanceUsername: who SSH logs in as. */
  username?: string
  /** regionInfo.domain: where the notebook page is served. */
  domain?: string
  /** regionInfo.sshAddress, and the address of the default node ports. */
  sshAddress?: string
  subUrl?: string
  /** Default: 22 → 30022 and 8080 → 30080 at sshAddress. */
  nodePorts?: NodePort[]
  /** Further runtime fields (phase, diagnosisReason, …), applied last. */
  runtime?: Partial<Instance['instanceRuntimeInfo']>
}

export function makeInstance(overrides: InstanceOverrides = {}): Instance {
  const id = overrides.id ?? 'notebook-00000000-0000-4000-8000-000000000001'
  const sshAddress = overrides.sshAddress ?? '127.0.0.1'
  return {
    instanceMetadata: {
      instanceAuth: { ownerUserName: overrides.owner ?? 'demo' },
      instanceId: id,
      instanceUsername: overrides.username ?? 'root'
    },
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
        domain: overrides.domain ?? 'r1.example',
        location: 'Singapore',
        name: 'Singapore 1',
        sshAddress,
        value: 'sg-1',
        regionId: 'sg-1'
      },
      remoteStorages: [],
      nodePorts: overrides.nodePorts ?? [
        { port: 22, address: sshAddress, nodePort: 30022 },
        { port: 8080, address: sshAddress, nodePort: 30080 }
      ],
      isSpotInstance: false
    },
    instanceRuntimeInfo: {
      createAtUnixMs: overrides.createdAt ?? Date.UTC(2026, 0, 1),
      status: overrides.status ?? 'Running',
      healthy: true,
      subUrl: overrides.subUrl ?? '/notebook/1/',
      stopTimestamp: 0,
      scheduledStopTimestamp: 0,
      ...overrides.runtime
    }
  }
}
