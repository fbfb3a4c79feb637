/**
 * The SSH target of an instance, in main's words: where it is comes from the spec's rule in
 * src/shared/instance-rules.ts (sshEndpoint: the port-22 entry, the region's sshAddress when
 * the entry has none, the instance's `instanceUsername`); this file says why when there is none.
 */
import type { Instance } from '../../shared/api'
import { hostForUrl, isRunning, sshEndpoint } from '../../shared/instance-rules'
import { AppError } from '../app-error'

export interface SshTarget {
  host: string
  port: number
  username: string
}

export function sshTarget(instance: Instance): SshTarget {
  const name = instance.instanceSpecInfo.name
  const endpoint = sshEndpoint(instance)
  if (!endpoint.ok && endpoint.reason === 'no-ssh-port') {
    throw new AppError('not-allowed', `“${name}” has no SSH port. Create the instance with port 22 open to reach it by SSH.`)
  }
  if (!endpoint.ok) {
    throw new AppError('not-allowed', `The cloud did not say where “${name}” answers SSH yet. Wait a moment and try again.`)
  }
  return { host: endpoint.host, port: endpoint.port, username: endpoint.username }
}

/** Only a running instance has an SSH server to reach. */
export function requireRunning(instance: Instance): void {
  const status = instance.instanceRuntimeInfo.status
  if (!isRunning(instance)) {
    throw new AppError(
      'not-allowed',
      `“${instance.instanceSpecInfo.name}” is ${status}, not running. Open a terminal once it is Running.`
    )
  }
}

/** The command a user can paste into their own terminal. */
export function sshCommand(target: SshTarget): string {
  return `ssh -p ${target.port} ${target.username}@${hostForUrl(target.host)}`
}
