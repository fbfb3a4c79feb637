/**
 * Where an instance's SSH server is: the nodePorts entry for port 22 gives the address and the
 * public port; the region's sshAddress stands in when the entry has no address. The login name
 * is the instance's `instanceUsername`.
 */
import { statusGroup, type Instance } from '../../shared/api'
import { AppError } from '../app-error'

export interface SshTarget {
  host: string
  port: number
  username: string
}

export function sshTarget(instance: Instance): SshTarget {
  const name = instance.instanceSpecInfo.name
  const entry = instance.instanceSpecInfo.nodePorts.find((nodePort) => nodePort.port === 22)
  if (!entry) {
    throw new AppError('not-allowed', `“${name}” has no SSH port. Create the instance with port 22 open to reach it by SSH.`)
  }
  const host = entry.address || instance.instanceSpecInfo.regionInfo.sshAddress
  if (!host) {
    throw new AppError('not-allowed', `The cloud did not say where “${name}” answers SSH yet. Wait a moment and try again.`)
  }
  return { host, port: entry.nodePort, username: instance.instanceMetadata.instanceUsername }
}

/** Only a running instance has an SSH server to reach. */
export function requireRunning(instance: Instance): void {
  const status = instance.instanceRuntimeInfo.status
  if (statusGroup(status) !== 'usable') {
    throw new AppError(
      'not-allowed',
      `“${instance.instanceSpecInfo.name}” is ${status}, not running. Open a terminal once it is Running.`
    )
  }
}

/** The command a user can paste into their own terminal. */
export function sshCommand(target: SshTarget): string {
  return `ssh -p ${target.port} ${target.username}@${formatHost(target.host)}`
}

/** IPv6 literals need brackets after the `@`. */
function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
}
