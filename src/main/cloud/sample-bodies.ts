/** Well-formed bodies of the API, for the client's tests (test-only). */

export function instance(id: string) {
  return {
    instanceMetadata: { instanceAuth: { ownerUserName: 'u' }, instanceId: id, instanceUsername: 'root' },
    instanceSpecInfo: {
      name: id,
      instanceBillingInfo: { chargeMode: 'perHour', duration: 1, price: 1.5, unit: '$', type: 'On-Demand' },
      instanceTypeInfo: {
        instanceId: 't1',
        instanceTypeName: 'H100 x1',
        cpu: { amount: 8, type: 'x86', unit: 'core' },
        memory: { amount: 64, type: 'DDR5', unit: 'GB' },
        gpu: { amount: 1, type: 'H100', unit: 'card' },
        disk: { amount: 100, type: 'SSD', unit: 'GB' }
      },
      regionInfo: { domain: 'r.example', location: 'X', name: 'R', sshAddress: '10.0.0.1', value: 'r', regionId: 'r1' },
      nodePorts: [{ port: 22, address: '10.0.0.1', nodePort: 30022 }]
    },
    instanceRuntimeInfo: { createAtUnixMs: 1, status: 'Running', healthy: true, subUrl: '/nb/x' }
  }
}

export function volume(name: string) {
  return { id: 'v1', volumeName: name, region: 'r1', volumeType: 'filesystem', sizeGB: 10, usageGB: 0, status: 'Pending', username: 'u' }
}
