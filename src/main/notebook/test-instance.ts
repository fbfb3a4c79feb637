/** A Running instance as the API returns it, for the notebook tests. */
import type { Instance } from '../../shared/api'

export function instanceWith(overrides: { status?: string; domain?: string; subUrl?: string } = {}): Instance {
  return {
    instanceMetadata: { instanceAuth: { ownerUserName: 'demo' }, instanceId: 'inst-1', instanceUsername: 'root' },
    instanceSpecInfo: {
      name: 'trainer',
      instanceBillingInfo: { chargeMode: 'perHour', duration: 1, price: 1, unit: 'hour', type: 'postpaid' },
      instanceTypeInfo: {
        instanceId: 'type-1',
        instanceTypeName: 'gpu',
        cpu: { amount: 8, type: 'cpu', unit: 'core' },
        memory: { amount: 32, type: 'memory', unit: 'GiB' },
        gpu: { amount: 1, type: 'H100', unit: 'card' },
        disk: { amount: 100, type: 'disk', unit: 'GiB' }
      },
      regionInfo: { domain: overrides.domain ?? 'notebook.example.com', location: 'x', name: 'r', sshAddress: 'ssh.example.com', value: 'r', regionId: 'r1' },
      nodePorts: [{ port: 22, address: 'ssh.example.com', nodePort: 30022 }]
    },
    instanceRuntimeInfo: {
      createAtUnixMs: 0,
      status: overrides.status ?? 'Running',
      healthy: true,
      subUrl: overrides.subUrl ?? '/notebook/inst-1/'
    }
  }
}
