/**
 * The SSH wing's front door: everything SSH in the app, built here over one SshLinks (one shared
 * connection per instance): the known hosts, the links, the terminals, the port tunnels and the
 * files panels. The wing follows the hub on its own: a new instance list ends the connections to
 * instances that stopped and brings tunnels back or sends them waiting; a sign-in brings the
 * profile's remembered tunnels back and a sign-out closes them. The shell's hints (a window gone,
 * waking, back online) and Quit reach it through the core.
 *
 * Who uses it: the ssh command groups (commands/ssh*.ts) are handlers over it; the cost guard's
 * GPU probes run on `links.exec`; the tray copies `sshCommand` and works `tunnels`.
 */
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Instance } from '../../shared/api'
import type { Clock } from '../../shared/clock'
import type { InstancesSnapshot, Profile, SessionState, Settings } from '../../shared/contract'
import type { SessionRef } from '../../shared/contract-ssh'
import type { Editor } from '../../shared/contract-tunnels'
import type { UpdateBlockers } from '../../shared/contract-update'
import { sshEnded } from '../../shared/instance-rules'
import type { SandboxInfo } from '../account/sandbox'
import { AppError } from '../app-error'
import type { ClientId, EventFeed, EventSink, Platform, SystemEvent } from '../core-types'
import { agentPath } from './auth/agent-path'
import { installedEditors } from './config/editors'
import type { HostBlockInput } from './config/ssh-config'
import { KnownHostsStore } from './host-keys/known-hosts-store'
import { SshLinks, type SshLinksOptions } from './links/links'
import { FilesManager } from './sftp/files-manager'
import { sshCommand, sshTarget } from './target'
import { Terminals, type TerminalsOptions } from './terminals'
import { newSessionName } from './sessions/session-names'
import { TmuxSessions } from './sessions/tmux-sessions'
import { SavedTabs } from './saved-tabs/saved-tabs'
import { TunnelManager } from './tunnels/tunnel-manager'
import { TunnelStore } from './tunnels/tunnel-store'
import type { SaveProblems } from '../util/save-problems'

/** Where the wing finds the user's SSH setup; tests point it elsewhere and turn its knobs. */
export interface SshEnvironment {
  /** The user's home: ~/.ssh keys, known_hosts and config. */
  homeDir: string
  /** Which agent to ask; see auth/agent-path.ts. */
  agent: string | undefined
  /** Test knobs for the links (a short keepalive, a local target). */
  links?: Partial<SshLinksOptions>
  /** Test knobs for the terminals (flow control's window bounds). */
  terminals?: Pick<TerminalsOptions, 'parseWindow'>
  /** Which editors are installed (default: looked up on disk, config/editors.ts). */
  editors?: () => Editor[]
}

export function defaultSshEnvironment(): SshEnvironment {
  return { homeDir: homedir(), agent: agentPath(process.platform, process.env, existsSync) }
}

/** What the wing uses of the app. */
export interface SshWingOptions {
  /** The app's own known_hosts and the remembered tunnels live here. */
  dataDir: string
  /** Where a refused write of the saved terminal tabs is told to the user. */
  problems: SaveProblems
  clock: Clock
  /** The hub: terminal bytes and statuses, prompts, tunnels, files. */
  emit: EventSink
  /** The hub: the wing follows `instances` and `session`. */
  events: EventFeed
  /** The watcher: the instance as it last saw it. */
  watcher: { find(instanceId: string): Instance | undefined }
  /**
   * The account: the profile in use, the Sandbox's key while its emulator runs, the session when
   * the wing is built, whose it is (`profileId/username`: saved tabs are per account).
   */
  account: { currentProfile(): Profile; sandbox(): SandboxInfo | undefined; state(): SessionState; accountKey(): string | undefined }
  /** The key set in Settings; which profiles' terminals run plain shells. */
  settings: { get(): Pick<Settings, 'sshKeyFile' | 'terminals'> }
  /** A tunnel's page in the browser; an editor's Remote-SSH link; Electron's folder dialog for downloads. */
  platform: Pick<Platform, 'openExternal' | 'openEditor' | 'pickFolder'>
  /** Default: the user's own (defaultSshEnvironment). */
  environment?: SshEnvironment | undefined
  /** Told the number of uploads and downloads under way each time it changes (the computer stays awake meanwhile). */
  transfersChanged?: (count: number) => void
}

export class SshWing {
  /** The user's home, as the wing sees it (~/.ssh). */
  readonly homeDir: string
  readonly clock: Clock
  readonly knownHosts: KnownHostsStore
  /** The shared connections: `exec` runs background commands (a GPU probe) on them. */
  readonly links: SshLinks
  readonly terminals: Terminals
  /** tmux on the instances: persistent tabs, the sessions an instance's panel lists, jobs. */
  readonly sessions: TmuxSessions
  readonly tunnels: TunnelManager
  readonly files: FilesManager
  /** The open terminal tabs and their scrollback, kept for the next start (saved-tabs/). */
  readonly savedTabs: SavedTabs
  /** Whose session this is now, kept so a sign-out knows whose saved tabs to delete. */
  private account: string | undefined
  /** Which editors "Open in …" offers. */
  readonly editors: () => Editor[]
  /** Electron's folder dialog in main, where downloads are written by main; absent where the window picks (the web shell). */
  readonly pickFolder: (() => Promise<string | undefined>) | undefined

  constructor(private readonly options: SshWingOptions) {
    const { dataDir, clock, emit, events } = options
    const environment = options.environment ?? defaultSshEnvironment()
    this.homeDir = environment.homeDir
    this.clock = clock
    this.knownHosts = new KnownHostsStore(join(dataDir, 'known_hosts'), join(environment.homeDir, '.ssh', 'known_hosts'))
    this.links = new SshLinks({
      clock,
      emit,
      findInstance: (instanceId) => options.watcher.find(instanceId),
      knownHosts: this.knownHosts,
      homeDir: environment.homeDir,
      settingsKeyFile: () => options.settings.get().sshKeyFile,
      sandboxKeyFile: () => this.sandboxKeyFile(),
      agent: environment.agent,
      ...environment.links
    })
    this.sessions = new TmuxSessions(this.links)
    this.terminals = new Terminals({ links: this.links, clock, emit, tmux: this.sessions, ...environment.terminals })
    this.tunnels = new TunnelManager({
      links: this.links,
      clock,
      store: new TunnelStore(dataDir, options.problems),
      findInstance: (instanceId) => options.watcher.find(instanceId),
      publish: (list) => emit('tunnels', list),
      // why: the tunnel's own http://127.0.0.1:<port>/ address, built by main; the platform checks it again.
      openUrl: (url) => options.platform.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK
    })
    this.files = new FilesManager({ links: this.links, clock, emit, transfersChanged: options.transfersChanged })
    this.savedTabs = new SavedTabs(dataDir, options.problems)
    this.editors =
      environment.editors ??
      (() => installedEditors({ platform: process.platform, env: process.env, home: environment.homeDir, exists: existsSync }))
    const pickFolder = options.platform.pickFolder
    this.pickFolder = pickFolder ? () => pickFolder() : undefined
    this.sessionChanged(options.account.state())
    events.on('session', (state) => this.sessionChanged(state))
    events.on('instances', (snapshot) => this.instancesChanged(snapshot))
  }

  /** The instance as last listed, or a refusal in the user's words. */
  instance(instanceId: string): Instance {
    const found = this.options.watcher.find(instanceId)
    if (!found) throw new AppError('not-allowed', 'That instance is no longer in your list. Refresh the list and try again.')
    return found
  }

  /**
   * Opens a terminal tab. Without `session`, a new tmux session of ours when the profile keeps
   * sessions (the default; Settings → Terminal), else a plain shell; the answer names the session.
   */
  openTerminal(instanceId: string, cols: number, rows: number, clientId: ClientId, session?: SessionRef) {
    const chosen: SessionRef | undefined = session ?? (this.keepsSessions() ? { socket: 'ours', name: newSessionName() } : undefined)
    return this.terminals.open(instanceId, cols, rows, clientId, chosen)
  }

  /** Whether the current profile's terminals live in tmux sessions. */
  keepsSessions(): boolean {
    return !this.options.settings.get().terminals.plainShellProfiles.includes(this.options.account.currentProfile().id)
  }

  /** The `ssh …` command to paste into a terminal (`ssh.command`, the tray's "Copy SSH command"). */
  sshCommand(instanceId: string): string {
    return sshCommand(sshTarget(this.instance(instanceId)))
  }

  /** What the instance's Host block in ~/.ssh/config is made of (config preview and write, "Open in …"). */
  hostBlock(instanceId: string): HostBlockInput {
    const found = this.instance(instanceId)
    const identityFile = this.options.settings.get().sshKeyFile ?? this.sandboxKeyFile() ?? null
    return { instanceId, instanceName: found.instanceSpecInfo.name, target: sshTarget(found), identityFile }
  }

  /** Opens an editor's Remote-SSH link through the OS. */
  openEditor(url: string): Promise<void> {
    return this.options.platform.openEditor(url)
  }

  /** A window went away: its files sessions and terminals close, its prompts are withdrawn. */
  clientGone(clientId: ClientId): void {
    this.files.clientGone(clientId)
    this.links.clientGone(clientId)
    this.terminals.clientGone(clientId)
  }

  /** What is open now that a restart would cut off (update/update-service.ts waits for it). */
  activity(): UpdateBlockers {
    return { terminals: this.terminals.openCount(), tunnels: this.tunnels.list().length, transfers: this.files.transferCount() }
  }

  /**
   * Back from sleep or back online: a connection waiting out its backoff tries at once; after a
   * sleep the live ones are probed at once (one that died half-open reconnects now).
   */
  onSystemEvent(event: SystemEvent): void {
    if (event === 'resume' || event === 'online') this.links.retryWaitingNow()
    if (event === 'resume') this.links.probeNow()
  }

  /** Quit: every tunnel, files session and terminal closes, then the connections. */
  /** What the wing keeps on disk and reads at start: the window's saved terminal tabs. */
  load(): Promise<void> {
    return this.savedTabs.load()
  }

  /** Resolves once what the wing writes to disk is written. */
  flushed(): Promise<void> {
    return this.savedTabs.flushed()
  }

  dispose(): void {
    this.tunnels.dispose()
    this.files.dispose()
    this.terminals.dispose()
    this.links.dispose()
  }

  /** The Sandbox's generated key while the Sandbox profile is in use. */
  private sandboxKeyFile(): string | undefined {
    const { account } = this.options
    return account.currentProfile().builtIn === 'sandbox' ? account.sandbox()?.sshPrivateKeyPath : undefined
  }

  /**
   * Signed in: the profile's remembered tunnels come back; signed out: they close (an expiry keeps
   * them), and the account's saved terminal tabs and their scrollback are deleted.
   */
  private sessionChanged(state: SessionState): void {
    if (state.status === 'signed-in') void this.tunnels.signedIn(state.profileId)
    else if (state.status === 'signed-out') this.tunnels.signedOut()
    const before = this.account
    this.account = this.options.account.accountKey()
    if (state.status === 'signed-out' && before !== undefined) void this.savedTabs.forgetAccount(before).catch(() => undefined)
  }

  /** Whose terminals these are now (`profileId/username`), or undefined while signed out. */
  accountKey(): string | undefined {
    return this.options.account.accountKey()
  }

  /** A new instance list: connections to stopped instances end now (exec probes included), not after retries; tunnels follow. */
  private instancesChanged(snapshot: InstancesSnapshot): void {
    for (const instanceId of this.links.instanceIds()) {
      const found = snapshot.instances.find((each) => each.instanceMetadata.instanceId === instanceId)
      if (snapshot.fetchedAt !== null && sshEnded(found)) this.links.instanceStopped(instanceId, stoppedLine(found))
    }
    void this.tunnels.instances(snapshot)
  }
}

function stoppedLine(instance: Instance | undefined): string {
  if (!instance) return 'The instance is no longer in your list, so its connection was closed.'
  return `${instance.instanceSpecInfo.name} is ${instance.instanceRuntimeInfo.status}, so its connection was closed. Reconnect once it is Running again.`
}
