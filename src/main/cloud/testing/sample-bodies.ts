/** Well-formed bodies of the API, for the client's tests (test-only). */
import type { Instance } from '../../../shared/api'
import { makeInstance } from '../../../shared/testing/instance'

export function instance(id: string): Instance {
  return makeInstance({ id, name: id, owner: 'u', sshAddress: '10.0.0.1' })
}

export function volume(name: string) {
  return { id: 'v1', volumeName: name, region: 'r1', volumeType: 'filesystem', sizeGB: 10, usageGB: 0, status: 'Pending', username: 'u' }
}
