/**
 * SshLinks whose every instance is the test sshd (instance `i-1` unless told), authenticating
 * with the fixture's user key: what the tests and benchmarks of tunnels, files and exec share.
 */
import type { Instance } from '../../../shared/api'
import type { Clock } from '../../../shared/clock'
import type { EventSink } from '../../core-types'
import type { KnownHostsStore } from '../host-keys/known-hosts-store'
import { SshLinks } from '../links/links'
import { runningInstance } from './instance'
import type { OpenSshServer } from './openssh-server'

export interface SshdLinksOptions {
  clock: Clock
  knownHosts: KnownHostsStore
  /** For ~/.ssh default keys (none there: a scratch folder). */
  homeDir: string
  emit?: EventSink
  /** The instance as the watcher would list it (default: Running, at the server). */
  instance?: () => Instance
  keyFile?: string
  execIdleMs?: number
}

/** The instance as listed with its SSH port at `port` (the server's own, or a proxy's in front of it). */
export function sshdInstance(server: OpenSshServer, instanceId = 'i-1', port = server.port): Instance {
  return runningInstance({ instanceId, host: '127.0.0.1', port, username: server.username })
}

export function sshdLinks(server: OpenSshServer, options: SshdLinksOptions): SshLinks {
  const instance = options.instance ?? (() => sshdInstance(server))
  return new SshLinks({
    clock: options.clock,
    emit: options.emit ?? (() => {}),
    findInstance: () => instance(),
    knownHosts: options.knownHosts,
    homeDir: options.homeDir,
    settingsKeyFile: () => options.keyFile ?? server.userKeyPath,
    sandboxKeyFile: () => undefined,
    agent: undefined,
    random: () => 0,
    ...(options.execIdleMs !== undefined ? { execIdleMs: options.execIdleMs } : {})
  })
}
