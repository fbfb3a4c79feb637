/** A minimal Instance in the API's shape, for pure-policy tests. */
import type { Instance } from '../../shared/api'

export function fakeInstance(
  id: string,
  name: string,
  status: string,
  runtime: Partial<Instance['instanceRuntimeInfo']> = {},
  nodePorts: Instance['instanceSpecInfo']['nodePorts'] = []
): Instance {
  const amount = { amount: 1, type: 'x', unit: 'u' }
  return {
    instanceMetadata: { instanceAuth: { ownerUserName: 'demo' }, instanceId: id, instanceUsername: 'root' },
    instanceSpecInfo: {
      name,
      instanceBillingInfo: { chargeMode: 'perHour', duration: 1, price: 2.5, unit: '$', type: 'On-Demand' },
      instanceTypeInfo: { instanceId: 'type-1', instanceTypeName: 'H100 x1', cpu: amount, memory: amount, gpu: amount, disk: amount },
      regionInfo: { domain: 'nb.example', location: 'x', name: 'West', sshAddress: '10.0.0.9', value: 'us-west', regionId: 'region-1' },
      nodePorts
    },
    instanceRuntimeInfo: { createAtUnixMs: 0, status, healthy: true, subUrl: `/nb/${id}/`, ...runtime }
  }
}
