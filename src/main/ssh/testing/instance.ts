/** A Running instance whose port-22 entry points at a local SSH server (tests and benchmarks). */
import type { Instance } from '../../../shared/api'

export function runningInstance(input: { instanceId?: string; name?: string; host: string; port: number; username: string }): Instance {
  return {
    instanceMetadata: {
      instanceAuth: { ownerUserName: 'demo' },
      instanceId: input.instanceId ?? 'inst-test',
      instanceUsername: input.username
    },
    instanceSpecInfo: {
      name: input.name ?? 'test-box',
      instanceBillingInfo: {} as Instance['instanceSpecInfo']['instanceBillingInfo'],
      instanceTypeInfo: {} as Instance['instanceSpecInfo']['instanceTypeInfo'],
      regionInfo: { domain: 'localhost', location: 'loopback', name: 'Loopback', sshAddress: input.host, value: 'lo', regionId: 'lo' },
      nodePorts: [{ port: 22, address: input.host, nodePort: input.port }]
    },
    instanceRuntimeInfo: { createAtUnixMs: 0, status: 'Running', healthy: true, subUrl: '/' }
  }
}
