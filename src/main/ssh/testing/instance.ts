/** A Running instance whose port-22 entry points at a local SSH server (tests and benchmarks). */
import type { Instance } from '../../../shared/api'
import { makeInstance } from '../../../shared/testing/instance'

export function runningInstance(input: { instanceId?: string; name?: string; host: string; port: number; username: string }): Instance {
  return makeInstance({
    id: input.instanceId ?? 'inst-test',
    name: input.name ?? 'test-box',
    username: input.username,
    domain: 'localhost',
    sshAddress: input.host,
    subUrl: '/',
    nodePorts: [{ port: 22, address: input.host, nodePort: input.port }]
  })
}
