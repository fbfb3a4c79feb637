/**
 * The `ssh.*` commands and notices: terminals (open, close, reconnect, prompt answers; input,
 * resize and acks as notices) served by one SshManager, and the copy/config helpers. Terminal bytes go only to the client
 * that opened the terminal; a client that goes away has its terminals closed and its prompts
 * cancelled.
 */
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Instance } from '../../shared/api'
import type { Clock } from '../../shared/clock'
import type { Profile, Settings } from '../../shared/contract'
import type { SandboxInfo } from '../account/sandbox'
import { AppError } from '../app-error'
import type { EventSink } from '../core-types'
import type { CommandGroup } from './dispatcher'
import { agentPath } from '../ssh/agent-path'
import { KnownHostsStore } from '../ssh/known-hosts-store'
import { planHostBlock, readSshConfig, sshConfigPath, writeHostBlock, type HostBlockInput } from '../ssh/ssh-config'
import { SshManager, type SshManagerOptions } from '../ssh/ssh-manager'
import { sshCommand, sshTarget } from '../ssh/target'

export interface SshEnvironment {
  /** The user's home: ~/.ssh keys, known_hosts and config. */
  homeDir: string
  /** Which agent to ask; see agent-path.ts. */
  agent: string | undefined
  /** Test knobs passed to the manager (short keepalive, a local target). */
  manager?: Partial<SshManagerOptions>
}

export function defaultSshEnvironment(): SshEnvironment {
  return { homeDir: homedir(), agent: agentPath(process.platform, process.env, existsSync) }
}

/** What the ssh commands use of the app. */
export interface SshServices {
  /** known_hosts of the app's own lives here. */
  dataDir: string
  clock: Clock
  emit: EventSink
  /** The instance as the watcher last saw it. */
  findInstance(instanceId: string): Instance | undefined
  currentProfile(): Profile
  settings(): Settings
  /** Set while the Sandbox profile's embedded emulator runs (its SSH key). */
  sandbox(): SandboxInfo | undefined
}

type SshCommand =
  | 'ssh.open'
  | 'ssh.close'
  | 'ssh.reconnect'
  | 'ssh.answer'
  | 'ssh.forgetHostKey'
  | 'ssh.command'
  | 'ssh.configPreview'
  | 'ssh.configWrite'

type SshNotice = 'ssh.ack' | 'ssh.input' | 'ssh.resize'

export function sshCommands(services: SshServices): CommandGroup<SshCommand, SshNotice> {
  return createSshCommands(services, defaultSshEnvironment())
}

export function createSshCommands(services: SshServices, environment: SshEnvironment): CommandGroup<SshCommand, SshNotice> {
  const sandboxKey = (): string | undefined =>
    services.currentProfile().builtIn === 'sandbox' ? services.sandbox()?.sshPrivateKeyPath : undefined
  const identityFile = (): string | undefined => services.settings().sshKeyFile ?? sandboxKey()

  const manager = new SshManager({
    clock: services.clock,
    emit: services.emit,
    findInstance: (instanceId) => services.findInstance(instanceId),
    knownHosts: new KnownHostsStore(join(services.dataDir, 'known_hosts'), join(environment.homeDir, '.ssh', 'known_hosts')),
    homeDir: environment.homeDir,
    settingsKeyFile: () => services.settings().sshKeyFile,
    sandboxKeyFile: sandboxKey,
    agent: environment.agent,
    ...environment.manager
  })

  const instance = (instanceId: string): Instance => {
    const found = services.findInstance(instanceId)
    if (!found) throw new AppError('not-allowed', 'That instance is no longer in your list. Refresh the list and try again.')
    return found
  }
  const blockInput = (instanceId: string): HostBlockInput => {
    const found = instance(instanceId)
    return { instanceId, instanceName: found.instanceSpecInfo.name, target: sshTarget(found), identityFile: identityFile() ?? null }
  }
  const configPath = sshConfigPath(environment.homeDir)
  const configFailure = (verb: string, error: unknown): AppError =>
    error instanceof AppError
      ? error
      : new AppError('io', `Could not ${verb} ${configPath}: ${(error as Error).message}. Nothing was changed; check the file's permissions.`, { cause: error })

  return {
    handlers: {
      'ssh.open': async ({ instanceId, cols, rows }, { clientId }) => manager.open(instanceId, cols, rows, clientId),
      'ssh.close': async ({ terminalId }, { clientId }) => manager.close(terminalId, clientId),
      'ssh.reconnect': async ({ terminalId }, { clientId }) => manager.reconnect(terminalId, clientId),
      'ssh.answer': async ({ promptId, answer }, { clientId }) => manager.answer(promptId, answer, clientId),
      'ssh.forgetHostKey': async ({ host, port }) => {
        try {
          await manager.forgetHostKey(host, port)
        } catch (error) {
          throw new AppError('io', `Could not remove the old host key: ${(error as Error).message}. Check that your known_hosts files are writable.`, { cause: error })
        }
      },
      'ssh.command': async ({ instanceId }) => ({ command: sshCommand(sshTarget(instance(instanceId))) }),
      'ssh.configPreview': async ({ instanceId }) => {
        const input = blockInput(instanceId)
        try {
          const plan = planHostBlock((await readSshConfig(environment.homeDir)) ?? '', input)
          return { path: configPath, block: plan.block, placement: plan.placement }
        } catch (error) {
          throw configFailure('read', error)
        }
      },
      'ssh.configWrite': async ({ instanceId, block }) => {
        const input = blockInput(instanceId)
        let outcome: Awaited<ReturnType<typeof writeHostBlock>>
        try {
          outcome = await writeHostBlock(environment.homeDir, input, block, services.clock.now())
        } catch (error) {
          throw configFailure('write', error)
        }
        if (!outcome.written) {
          throw new AppError(
            'not-allowed',
            `The Host block changed since you reviewed it (the instance's SSH details or your config file changed). Nothing was written. Review the new block and write again.`,
            { field: 'block' }
          )
        }
        return { path: outcome.path, backupPath: outcome.backupPath }
      }
    },
    notices: {
      'ssh.input': ({ terminalId, data }, { clientId }) => manager.input(terminalId, data, clientId),
      'ssh.resize': ({ terminalId, cols, rows }, { clientId }) => manager.resize(terminalId, cols, rows, clientId),
      'ssh.ack': ({ terminalId, bytes }, { clientId }) => manager.ack(terminalId, bytes, clientId)
    },
    clientGone: (clientId) => manager.clientGone(clientId),
    // Back from sleep or back online: a connection waiting out its backoff tries at once.
    onSystemEvent: (event) => {
      if (event === 'resume' || event === 'online') manager.retryWaitingNow()
    },
    dispose: () => manager.dispose()
  }
}
