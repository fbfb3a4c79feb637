/**
 * Where an instance's SSH server is: the nodePorts entry for port 22 gives the address and the
 * public port; the region's sshAddress stands in when the entry has no address. The login name
 * is the instance's `instanceUsername`. All three come from the server, so each must pass
 * ssh-values.ts before anything (a terminal, the copied command, ~/.ssh/config, known_hosts)
 * uses it.
 */
import { join as shellJoin } from 'shlex'
import { statusGroup, type Instance } from '../../shared/api'
import { AppError } from '../app-error'
import { shownValue, sshHost, sshPort, sshUser, type SshValue } from './ssh-values'

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
  return {
    host: checked(name, 'address', host, sshHost(host)),
    port: checked(name, 'SSH port', String(entry.nodePort), sshPort(entry.nodePort)),
    username: checked(name, 'login name', instance.instanceMetadata.instanceUsername, sshUser(instance.instanceMetadata.instanceUsername))
  }
}

function checked<T>(instanceName: string, what: string, raw: string, result: SshValue<T>): T {
  if (result.ok) return result.value
  throw new AppError(
    'not-allowed',
    `The cloud gave “${shownValue(instanceName)}” the SSH ${what} “${shownValue(raw)}”, which ${result.problem}. ` +
      `The app will not use it in a terminal, a copied command or your SSH config. Ask your cloud provider to correct the instance's SSH details.`
  )
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

/**
 * Whether an instance's SSH connections should end: it is stopping or stopped, failed, or gone
 * from the list. A restart on the way back (Starting, Restarting) is not a stop: connections keep
 * reconnecting through it by themselves.
 */
export function sshEnded(instance: Instance | undefined): boolean {
  if (!instance) return true
  const status = instance.instanceRuntimeInfo.status
  const group = statusGroup(status)
  return status === 'Stopping' || group === 'ended' || group === 'failed'
}

/**
 * The command a user can paste into their own terminal. Each word is quoted for POSIX shells
 * (shlex: plain words stay bare, anything else in single quotes), so even a value that slipped
 * past sshTarget's checks is one inert argument. An IPv6 address stays bare after the `@`:
 * OpenSSH takes `user@::1` but would look up `[::1]` as a host name.
 */
export function sshCommand(target: SshTarget): string {
  return shellJoin(['ssh', '-p', String(target.port), `${target.username}@${target.host}`])
}
