/**
 * The SSH command group: terminals (`ssh.*`; input, resize and acks as notices) served by one
 * SshManager, port tunnels (`tunnels.*`, ssh-tunnels.ts), files panels (`files.*`, ssh-files.ts),
 * "Open in VS Code / Cursor" (`editor.*`, ssh-editor.ts) and the copy/config helpers, all over one
 * SshLinks (one shared connection per instance). Terminal bytes go only to the client that
 * opened the terminal; a client that goes away has its terminals and files sessions closed and
 * its prompts cancelled. Connections end when their instance stops; tunnels follow the session
 * and the instance list (`instancesChanged`, `sessionChanged`, called by core.ts).
 */
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Instance } from '../../shared/api'
import type { Clock } from '../../shared/clock'
import type { InstancesSnapshot, Profile, SessionState, Settings } from '../../shared/contract'
import type { Editor } from '../../shared/contract-tunnels'
import type { SandboxInfo } from '../account/sandbox'
import { AppError } from '../app-error'
import type { EventSink, Platform } from '../core-types'
import type { CommandGroup } from './dispatcher'
import { agentPath } from '../ssh/auth/agent-path'
import { installedEditors } from '../ssh/config/editors'
import { FilesManager } from '../ssh/sftp/files-manager'
import { KnownHostsStore } from '../ssh/host-keys/known-hosts-store'
import { SshLinks } from '../ssh/links/links'
import {
  hostBlockInPlace,
  planHostBlock,
  readSshConfig,
  sshConfigPath,
  writeHostBlock,
  type HostBlockInput
} from '../ssh/config/ssh-config'
import { SshManager, linkOptions, type SshManagerOptions } from '../ssh/ssh-manager'
import { sshEnded } from '../../shared/instance-rules'
import { sshCommand, sshTarget } from '../ssh/target'
import { TunnelManager } from '../ssh/tunnels/tunnel-manager'
import { TunnelStore } from '../ssh/tunnels/tunnel-store'
import { editorCommands, type EditorCommand } from './ssh-editor'
import { filesCommands, type FilesCommand, type FilesNotice } from './ssh-files'
import { tunnelCommands, type TunnelCommand } from './ssh-tunnels'

export interface SshEnvironment {
  /** The user's home: ~/.ssh keys, known_hosts and config. */
  homeDir: string
  /** Which agent to ask; see agent-path.ts. */
  agent: string | undefined
  /** Test knobs passed to the manager (short keepalive, a local target). */
  manager?: Partial<SshManagerOptions>
  /** Which editors are installed (default: looked up on disk, editors.ts). */
  editors?: () => Editor[]
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
  /** A tunnel's page in the browser; an editor's Remote-SSH link. */
  platform: Pick<Platform, 'openExternal' | 'openEditor'>
  /** The session as it stands at start (tunnels come back once signed in). */
  sessionState(): SessionState
  /** The tunnels' list changed: what the tray shows of them too. */
  tunnelsChanged(): void
}

type SshCommand =
  'ssh.open' | 'ssh.close' | 'ssh.reconnect' | 'ssh.answer' | 'ssh.forgetHostKey' | 'ssh.command' | 'ssh.configPreview' | 'ssh.configWrite'

type SshNotice = 'ssh.ack' | 'ssh.input' | 'ssh.resize' | 'ssh.eof'

/** The group, and what the rest of main tells it or asks of it. */
export type SshGroup = CommandGroup<SshCommand | TunnelCommand | FilesCommand | EditorCommand, SshNotice | FilesNotice> & {
  /**
   * The shared connections: `links.exec` is the seam for background commands on running
   * instances (e.g. a GPU-activity probe), to be handed to whoever needs it.
   */
  links: SshLinks
  tunnels: TunnelManager
  /** A new instance list: connections to stopped instances end; tunnels follow. */
  instancesChanged(snapshot: InstancesSnapshot): void
  /** Signed in: the profile's remembered tunnels come back; signed out: they close. */
  sessionChanged(state: SessionState): void
}

export function sshCommands(services: SshServices): SshGroup {
  return createSshCommands(services, defaultSshEnvironment())
}

export function createSshCommands(services: SshServices, environment: SshEnvironment): SshGroup {
  const sandboxKey = (): string | undefined =>
    services.currentProfile().builtIn === 'sandbox' ? services.sandbox()?.sshPrivateKeyPath : undefined
  const identityFile = (): string | undefined => services.settings().sshKeyFile ?? sandboxKey()

  const managerOptions: SshManagerOptions = {
    clock: services.clock,
    emit: services.emit,
    findInstance: (instanceId) => services.findInstance(instanceId),
    knownHosts: new KnownHostsStore(join(services.dataDir, 'known_hosts'), join(environment.homeDir, '.ssh', 'known_hosts')),
    homeDir: environment.homeDir,
    settingsKeyFile: () => services.settings().sshKeyFile,
    sandboxKeyFile: sandboxKey,
    agent: environment.agent,
    ...environment.manager
  }
  const links = new SshLinks(linkOptions(managerOptions))
  const manager = new SshManager({ ...managerOptions, links })
  const tunnels = new TunnelManager({
    links,
    clock: services.clock,
    store: new TunnelStore(services.dataDir),
    findInstance: (instanceId) => services.findInstance(instanceId),
    publish: (list) => services.emit('tunnels', list),
    stateChanged: () => services.tunnelsChanged(),
    // why: the tunnel's own http://127.0.0.1:<port>/ address, built by main; the platform checks it again.
    openUrl: (url) => services.platform.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK
  })
  const files = new FilesManager({ links, clock: services.clock, emit: services.emit })
  const filesGroup = filesCommands(files)
  const sessionChanged = (state: SessionState): void => {
    if (state.status === 'signed-in') void tunnels.signedIn(state.profileId)
    else if (state.status === 'signed-out') tunnels.signedOut()
  }
  sessionChanged(services.sessionState())

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
      : new AppError(
          'io',
          `Could not ${verb} ${configPath}: ${(error as Error).message}. Nothing was changed; check the file's permissions.`,
          { cause: error }
        )

  return {
    links,
    tunnels,
    sessionChanged,
    instancesChanged(snapshot) {
      // Connections to an instance that stopped end now (exec probes included), not after retries.
      for (const instanceId of links.instanceIds()) {
        const found = snapshot.instances.find((each) => each.instanceMetadata.instanceId === instanceId)
        if (snapshot.fetchedAt !== null && sshEnded(found)) links.instanceStopped(instanceId, stoppedLine(found))
      }
      void tunnels.instances(snapshot)
    },
    handlers: {
      ...tunnelCommands(tunnels).handlers,
      ...filesGroup.handlers,
      ...editorCommands({
        links,
        homeDir: environment.homeDir,
        blockInput,
        openEditor: (url) => services.platform.openEditor(url),
        editors:
          environment.editors ??
          (() => installedEditors({ platform: process.platform, env: process.env, home: environment.homeDir, exists: existsSync }))
      }).handlers,
      'ssh.open': async ({ instanceId, cols, rows, run }, { clientId }) => manager.open(instanceId, cols, rows, clientId, run),
      'ssh.close': async ({ terminalId }, { clientId }) => manager.close(terminalId, clientId),
      'ssh.reconnect': async ({ terminalId }, { clientId }) => manager.reconnect(terminalId, clientId),
      'ssh.answer': async ({ promptId, answer }, { clientId }) => manager.answer(promptId, answer, clientId),
      'ssh.forgetHostKey': async ({ host, port }) => {
        try {
          await manager.forgetHostKey(host, port)
        } catch (error) {
          throw new AppError(
            'io',
            `Could not remove the old host key: ${(error as Error).message}. Check that your known_hosts files are writable.`,
            { cause: error }
          )
        }
      },
      'ssh.command': async ({ instanceId }) => ({ command: sshCommand(sshTarget(instance(instanceId))) }),
      'ssh.configPreview': async ({ instanceId }) => {
        const input = blockInput(instanceId)
        try {
          const existing = (await readSshConfig(environment.homeDir)) ?? ''
          const plan = planHostBlock(existing, input)
          return { path: configPath, block: plan.block, placement: plan.placement, inPlace: hostBlockInPlace(existing, input) }
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
      'ssh.eof': ({ terminalId }, { clientId }) => manager.eof(terminalId, clientId),
      'ssh.ack': ({ terminalId, bytes }, { clientId }) => manager.ack(terminalId, bytes, clientId),
      ...filesGroup.notices
    },
    clientGone: (clientId) => {
      files.clientGone(clientId)
      manager.clientGone(clientId)
    },
    // Back from sleep or back online: a connection waiting out its backoff tries at once.
    onSystemEvent: (event) => {
      if (event === 'resume' || event === 'online') links.retryWaitingNow()
    },
    dispose: () => {
      tunnels.dispose()
      files.dispose()
      manager.dispose()
      links.dispose()
    }
  }
}

function stoppedLine(instance: Instance | undefined): string {
  if (!instance) return 'The instance is no longer in your list, so its connection was closed.'
  return `${instance.instanceSpecInfo.name} is ${instance.instanceRuntimeInfo.status}, so its connection was closed. Reconnect once it is Running again.`
}
