/**
 * The one contract between the renderer and main: what the renderer may ask (commands:
 * name → input → result) and what main may tell it (events: name → payload).
 * Everything that crosses the process boundary is named here and nowhere else. Both transports
 * (Electron IPC, and the WebSocket used by `npm run web` and the tests) carry exactly this.
 *
 * Rules that hold for every command:
 * - It answers a Result: `{ok: true, value}` or `{ok: false, error: ErrorInfo}`; it never throws
 *   across the boundary.
 * - No result or event ever carries the access token, a password or a passphrase. The one
 *   exception is the Sandbox's own password (ProfilesState), which main made for the user to see.
 * - A command that meets `not-logged-in` is kept by main: the `session.expired` event fires, and
 *   once the user logs in again the command is retried once and its invoke resolves with that
 *   outcome. So a form awaiting `instances.create` simply continues after re-login. If the user
 *   signs out instead, it resolves with the `not-logged-in` error.
 */
import type {
  CreateInstanceRequest,
  CreateVolumeRequest,
  Instance,
  ListInstancesResponse,
  PagerRequest,
  Volume
} from './api'
import type { ErrorInfo, Result } from './errors'
import type { SshCommands, SshEvents } from './contract-ssh'
import type { TunnelCommands, TunnelEvents } from './contract-tunnels'
import type { FilesCommands, FilesEvents } from './contract-files'

export type { ErrorInfo, Result } from './errors'

// ---------------------------------------------------------------- profiles and session

export interface Profile {
  id: string
  name: string
  /** API base, e.g. https://hpc-ai.com/api. For the Sandbox: the embedded emulator's URL once started. */
  baseUrl: string
  /** Built-in profiles cannot be removed; `sandbox` runs the embedded emulator. */
  builtIn?: 'hpc-ai' | 'sandbox'
}

export interface ProfilesState {
  profiles: Profile[]
  selectedId: string
  /** The user name last used with the selected profile (prefilled; the Sandbox's is `demo`). */
  lastUsername: string
  /**
   * Prefilled password: only ever the Sandbox's own password (random per install, kept with its
   * state), while the Sandbox is selected and running; never a password the user typed.
   */
  demoPassword?: string
  /** Set while the Sandbox runs: how to reach it by hand, shown in Settings. */
  sandbox?: SandboxAccess
}

/** The running Sandbox, for curl and scripts (its control secret stays in its file). */
export interface SandboxAccess {
  /** http://127.0.0.1:N/api */
  apiUrl: string
  username: string
  /** The Sandbox account's password, random per install. */
  password: string
  /** http://127.0.0.1:M/__emulator: test controls, which need the secret in `controlSecretFile`. */
  controlUrl: string
  /** The file (mode 0600) holding this run's control secret. */
  controlSecretFile?: string
}

export interface ProfileInput {
  /** Absent for a new profile. */
  id?: string
  name: string
  baseUrl: string
}

export type SessionStatus = 'signed-out' | 'signed-in' | 'expired'

export interface SessionState {
  status: SessionStatus
  profileId: string
  username?: string
  /** Unix ms; from the JWT `exp`, else login time + accessExpire. */
  expiresAt?: number
  /** True when the token is kept in the OS keychain (remember me). */
  remembered: boolean
  /** Whether an OS keychain (Secret Service, Keychain, Credential Manager) could be reached. */
  keychain: 'available' | 'unavailable'
}

export interface LoginInput {
  profileId: string
  username: string
  password: string
  rememberMe: boolean
}

// ---------------------------------------------------------------- instances

export type PollMode = 'fast' | 'steady' | 'backoff' | 'paused'

export interface InstancesSnapshot {
  instances: Instance[]
  /** Unix ms of the last successful poll; null before the first one. */
  fetchedAt: number | null
  mode: PollMode
  /** Unix ms of the next scheduled poll, when one is scheduled. */
  nextPollAt?: number
}

export interface Transition {
  instanceId: string
  name: string
  /** null: the instance is new to the snapshot. */
  from: string | null
  /** null: the instance disappeared from the list. */
  to: string | null
  message?: string
  diagnosisMessage?: string
}

/** The watcher's health, for the banner: shown while polling fails, cleared when it recovers. */
export interface WatchHealth {
  state: 'ok' | 'failing'
  error?: ErrorInfo
  /** Unix ms of the next attempt while backing off. */
  retryAt?: number
}

/** Suggestions for the create form, from the user's instances and their recent launches. */
export interface Suggestion {
  id: string
  label: string
  source: 'instances' | 'recent'
}

export interface Suggestions {
  images: Suggestion[]
  instanceTypes: Suggestion[]
  regions: Suggestion[]
  /** Known prices per instance type id and charge mode, from existing instances. */
  prices: { instanceTypeId: string; chargeMode: string; price: number; unit: string }[]
}

// ---------------------------------------------------------------- notifications, tray, navigation

export type NotificationKind = 'ready' | 'failed' | 'stopped' | 'released' | 'summary' | 'expiring'

export interface AppNotification {
  id: string
  kind: NotificationKind
  title: string
  body: string
  /** Clicking the notification opens the app at this instance. */
  instanceId?: string
}

export type TrayIcon = 'idle' | 'running' | 'busy' | 'attention'

export interface TrayMenuItem {
  /** Stable id; activating it runs the action it names (see src/main/tray). */
  id: string
  label: string
  enabled: boolean
  type?: 'normal' | 'separator' | 'submenu'
  submenu?: TrayMenuItem[]
}

export interface TrayModel {
  tooltip: string
  icon: TrayIcon
  items: TrayMenuItem[]
}

export type NavigateTarget =
  | { view: 'login' }
  /**
   * `confirm: 'stop'`: the tray's "Stop…": show that instance and ask to confirm stopping it.
   * `show: 'forward-port'`: the tray's "Other port…": show that instance's "Forward a port" dialog.
   */
  | { view: 'instances'; instanceId?: string; confirm?: 'stop'; show?: 'forward-port' }
  | { view: 'create-instance' }
  | { view: 'volumes' }
  | { view: 'create-volume' }
  | { view: 'terminal'; instanceId: string }
  | { view: 'settings' }

// ---------------------------------------------------------------- settings

export type Theme = 'system' | 'light' | 'dark'

export interface Settings {
  notifications: { ready: boolean; failed: boolean; stopped: boolean; released: boolean }
  /** Poll intervals in ms: fast while something changes, steady otherwise. */
  pollIntervals: { fastMs: number; steadyMs: number }
  /** Private key file used for SSH before the ~/.ssh defaults; null: defaults only. */
  sshKeyFile: string | null
  startAtLogin: boolean
  openWindowAtStart: boolean
  theme: Theme
  terminalFontSize: number
}

export type SettingsPatch = {
  [K in keyof Settings]?: Settings[K] extends object ? Partial<Settings[K]> : Settings[K]
}

// ---------------------------------------------------------------- app shell

export interface AppInfo {
  version: string
  /** `electron`: the desktop app; `web`: `npm run web`, where Electron-only parts are replaced. */
  shell: 'electron' | 'web'
  /** In the web shell, what is replaced and by what, in the user's words (shown on the page). */
  replaced: string[]
}

/** In the web shell, what an Electron-only effect would have done (e.g. a notebook window). */
export interface RecordedEffect {
  at: number
  kind: 'notebook-window' | 'external-url' | 'os-notification' | 'clipboard'
  /** e.g. the notebook URL (never the cookie value). */
  detail: string
}

export interface Warning {
  id: string
  message: string
}

// ---------------------------------------------------------------- the maps

export interface CoreCommands {
  'app.info': { input: void; result: AppInfo }
  'profiles.get': { input: void; result: ProfilesState }
  'profiles.save': { input: ProfileInput; result: ProfilesState }
  'profiles.remove': { input: { id: string }; result: ProfilesState }
  'profiles.select': { input: { id: string }; result: ProfilesState }
  'session.get': { input: void; result: SessionState }
  'session.login': { input: LoginInput; result: SessionState }
  'session.logout': { input: void; result: SessionState }
  'instances.get': { input: void; result: InstancesSnapshot }
  /** Polls now (Ctrl/Cmd+R) and answers the fresh snapshot. */
  'instances.refresh': { input: void; result: InstancesSnapshot }
  /** One server page, for the list's pager. */
  'instances.page': { input: PagerRequest; result: ListInstancesResponse }
  'instances.create': { input: { request: CreateInstanceRequest }; result: { instanceId: string } }
  'instances.stop': { input: { instanceId: string }; result: { instanceId: string } }
  'instances.terminate': { input: { instanceId: string }; result: { instanceId: string } }
  'volumes.list': { input: PagerRequest; result: Volume[] }
  'volumes.create': { input: CreateVolumeRequest; result: Volume }
  'catalog.suggestions': { input: void; result: Suggestions }
  'settings.get': { input: void; result: Settings }
  'settings.update': { input: SettingsPatch; result: Settings }
  'tray.get': { input: void; result: TrayModel }
  /** Runs a tray item's action (the web shell's tray panel; the Electron tray calls it in main). */
  'tray.activate': { input: { itemId: string }; result: void }
  'notebook.open': { input: { instanceId: string }; result: { url: string } }
  /** Opens an http(s) URL in the system browser, after a check. */
  'external.open': { input: { url: string }; result: void }
  'warnings.get': { input: void; result: Warning[] }
  'recorded.get': { input: void; result: RecordedEffect[] }
}

export interface CoreEvents {
  session: SessionState
  /** Fires once, 10 minutes before expiry. */
  'session.expiring': { expiresAt: number }
  /** The session ended under a command; `pending` names the command waiting for re-login. */
  'session.expired': { pending: string | null }
  instances: InstancesSnapshot
  transitions: Transition[]
  'watch.health': WatchHealth
  notification: AppNotification
  tray: TrayModel
  navigate: NavigateTarget
  settings: Settings
  warning: Warning
  recorded: RecordedEffect
}

export type Commands = CoreCommands & SshCommands & TunnelCommands & FilesCommands
export type Events = CoreEvents & SshEvents & TunnelEvents & FilesEvents

export type CommandName = keyof Commands
export type EventName = keyof Events
export type CommandInput<C extends CommandName> = Commands[C]['input']
export type CommandResult<C extends CommandName> = Commands[C]['result']

/** What the preload exposes as `window.cloud`, and the web transport's client implements. */
export interface CloudBridge {
  invoke<C extends CommandName>(
    command: C,
    ...input: CommandInput<C> extends void ? [] : [CommandInput<C>]
  ): Promise<Result<CommandResult<C>>>
  /** Returns a function that removes the listener. */
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void
}

/** Runtime list of command names, for the transports to refuse anything else. */
export const COMMAND_NAMES = [
  'app.info',
  'profiles.get',
  'profiles.save',
  'profiles.remove',
  'profiles.select',
  'session.get',
  'session.login',
  'session.logout',
  'instances.get',
  'instances.refresh',
  'instances.page',
  'instances.create',
  'instances.stop',
  'instances.terminate',
  'volumes.list',
  'volumes.create',
  'catalog.suggestions',
  'settings.get',
  'settings.update',
  'tray.get',
  'tray.activate',
  'notebook.open',
  'external.open',
  'warnings.get',
  'recorded.get',
  'ssh.open',
  'ssh.input',
  'ssh.resize',
  'ssh.ack',
  'ssh.close',
  'ssh.reconnect',
  'ssh.answer',
  'ssh.command',
  'ssh.configPreview',
  'ssh.configWrite',
  'ssh.forgetHostKey',
  'tunnels.list',
  'tunnels.start',
  'tunnels.stop',
  'tunnels.open',
  'tunnels.checkPort',
  'editor.available',
  'editor.open',
  'files.open',
  'files.close',
  'files.list',
  'files.mkdir',
  'files.rename',
  'files.delete',
  'files.upload',
  'files.chunk',
  'files.download',
  'files.saved',
  'files.cancel'
] as const satisfies readonly CommandName[]

export const EVENT_NAMES = [
  'session',
  'session.expiring',
  'session.expired',
  'instances',
  'transitions',
  'watch.health',
  'notification',
  'tray',
  'navigate',
  'settings',
  'warning',
  'recorded',
  'ssh.data',
  'ssh.status',
  'ssh.prompt',
  'tunnels',
  'files.status',
  'files.transfer',
  'files.written',
  'files.data'
] as const satisfies readonly EventName[]

/** IPC channel names: one per command (invoke) and one per event (send). */
export const commandChannel = (name: CommandName): string => `cmd:${name}`
export const eventChannel = (name: EventName): string => `evt:${name}`

// Compile-time check that the runtime lists above name every command and event.
type Exhaustive<Missing extends never> = Missing
export type _AllCommandsListed = Exhaustive<Exclude<CommandName, (typeof COMMAND_NAMES)[number]>>
export type _AllEventsListed = Exhaustive<Exclude<EventName, (typeof EVENT_NAMES)[number]>>
