/**
 * Where an instance's SSH server is comes from the spec's rule in src/shared/instance-rules.ts
 * (sshEndpoint: the port-22 entry, the region's sshAddress when the entry has none, the
 * instance's `instanceUsername`). All three come from the server, so each must pass
 * ssh-values.ts before anything (a terminal, the copied command, ~/.ssh/config, known_hosts)
 * uses it; this file says why when there is none or it is refused.
 */
import { join as shellJoin } from 'shlex'
import type { Instance } from '../../shared/api'
import { isRunning, sshEndpoint, sshEntry } from '../../shared/instance-rules'
import { AppError } from '../app-error'
import { shownValue, sshHost, sshPort, sshUser, type SshValue } from './ssh-values'

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
    // Port 0 means "not assigned yet"; any other port the rules refuse is bad data, said as such.
    const nodePort = sshEntry(instance)?.nodePort ?? 0
    if (nodePort !== 0) checked(name, 'SSH port', String(nodePort), sshPort(nodePort))
    throw new AppError('not-allowed', `The cloud did not say where “${name}” answers SSH yet. Wait a moment and try again.`)
  }
  return {
    host: checked(name, 'address', endpoint.host, sshHost(endpoint.host)),
    port: checked(name, 'SSH port', String(endpoint.port), sshPort(endpoint.port)),
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
  if (!isRunning(instance)) {
    throw new AppError('not-allowed', `“${instance.instanceSpecInfo.name}” is ${status}, not running. Open a terminal once it is Running.`)
  }
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
