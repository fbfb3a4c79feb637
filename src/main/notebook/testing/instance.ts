/** A Running instance as the API returns it, for the notebook tests. */
import type { Instance } from '../../../shared/api'
import { makeInstance } from '../../../shared/testing/instance'

export function instanceWith(overrides: { status?: string; domain?: string; subUrl?: string } = {}): Instance {
  return makeInstance({
    id: 'inst-1',
    name: 'trainer',
    sshAddress: 'ssh.example.com',
    domain: overrides.domain ?? 'notebook.example.com',
    subUrl: overrides.subUrl ?? '/notebook/inst-1/',
    ...(overrides.status !== undefined ? { status: overrides.status } : {})
  })
}
