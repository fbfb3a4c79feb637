/**
 * The one contract between the renderer and main: what the renderer may ask (commands:
 * name → input → result) and what main may tell it (events: name → payload).
 * Everything that crosses the process boundary is named here and nowhere else. Both transports
 * (Electron IPC, and the WebSocket used by `npm run web` and the tests) carry exactly this; the
 * web shell adds its own few events for its pages (web/web-shell-events.ts).
 * Besides commands, the renderer sends notices (name → input): one-way messages such as a
 * terminal's keystrokes, which main checks like a command's input but never answers.
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
import type { CreateVolumeRequest, Instance, ListInstancesResponse, PagerRequest, UnreadableInstance, Volume } from './api'
import type { Balance } from './balance'
import type { InstanceCatalog } from './catalog'
import type { StuckReason } from './instance-rules'
import type { CreateInstanceRequest } from './create-request'
import type { ErrorInfo, Result } from './errors'
import type { SessionRef, SshCommands, SshEvents, SshNotices } from './contract-ssh'
import type { JobsCommands, JobsEvents } from './contract-jobs'
import type { CostCommands, CostEvents, CostGuardSettings } from './contract-cost'
import type { UpdateChannel, UpdateCommands, UpdateEvents } from './contract-update'
import type { TunnelCommands, TunnelEvents } from './contract-tunnels'
import type { FilesCommands, FilesEvents, FilesNotices } from './contract-files'
import type { TerminalsCommands } from './contract-terminals'
import type { LaunchCommands, LaunchEvents, LaunchFill, LaunchOrigin } from './contract-launch'
import type { ProxyCommands, ProxyEvents } from './contract-proxy'

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
  /** How the selected profile was last signed in to (the sign-in form opens on it). */
  lastMethod: SignInMethod
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

/**
 * `password`: user name and password give a token that lasts a day. `api-key`: a console API key
 * (sent as `X-API-Key`) that never expires on a timer; notebook pages still need a token, got
 * with the password once (`session.notebookSignIn`).
 */
export type SignInMethod = 'password' | 'api-key'

export interface SessionState {
  status: SessionStatus
  profileId: string
  username?: string
  /** Absent: `password`. */
  method?: SignInMethod
  /** Password sign-in only: Unix ms; from the JWT `exp`, else login time + accessExpire. */
  expiresAt?: number
  /**
   * API-key sign-in only: until when (Unix ms) notebook pages open without asking for the
   * password; absent until the password was given.
   */
  notebookSignInUntil?: number
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

/** Sign in with a console API key; the user name labels the session and signs in to notebooks. */
export interface KeyLoginInput {
  profileId: string
  username: string
  apiKey: string
  rememberMe: boolean
}

// ---------------------------------------------------------------- instances

export type PollMode = 'fast' | 'steady' | 'backoff' | 'paused'

/** A start the watcher judges stuck (instance-rules.ts stuckStart): shown in place and announced once. */
export interface StuckStart {
  instanceId: string
  name: string
  status: string
  reason: StuckReason
  /** Unix ms since when the status has not changed (as this app saw it). */
  since: number
  diagnosisReason?: string
  diagnosisMessage?: string
}

export interface InstancesSnapshot {
  instances: Instance[]
  /** Rows of the list that could not be read, each with its id when it had one. */
  unreadable?: UnreadableInstance[]
  /** Starts that are stuck now. */
  stuck?: StuckStart[]
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
  /** A spot instance (the provider may reclaim it): its stop is a reclaim unless this app asked. */
  spot?: true
}

/** The watcher's health, for the banner: shown while polling fails, cleared when it recovers. */
export interface WatchHealth {
  state: 'ok' | 'failing'
  error?: ErrorInfo
  /** Unix ms of the next attempt while backing off. */
  retryAt?: number
}

/** An image the create form offers: one the user used or named, or one the Sandbox comes with. */
export interface KnownImage {
  imageId: string
  /** What the user called it (or the Sandbox's name for it); the id when never named. */
  label: string
  source: 'mine' | 'sandbox'
  /** Unix ms of the last launch with it; absent: never launched from here. */
  lastUsedAt?: number
}

/**
 * What the create form offers for the session's profile: the catalog as last read (cached per
 * profile, refreshed in the background, so the form never waits for it) and the images.
 */
export interface CatalogView {
  profileId: string
  catalog: InstanceCatalog | null
  /** Unix ms of the last successful read; null: never read. */
  fetchedAt: number | null
  refreshing: boolean
  /** Why the last read failed, when it did. */
  error?: ErrorInfo
  images: KnownImage[]
}

/** The account's balance as last read (GET /balance); null before the first answer. */
export interface BalanceSnapshot {
  balance: Balance | null
  fetchedAt: number | null
  /** Why the last read failed; the amount shown is then from `fetchedAt`. */
  error?: ErrorInfo
}

// ---------------------------------------------------------------- notifications, tray, navigation

export type NotificationKind =
  | 'ready'
  | 'failed'
  | 'stopped'
  | 'released'
  | 'stuck'
  | 'low-balance'
  | 'summary'
  | 'expiring'
  /** The cost guard (src/main/cost): a reminder, a countdown before a stop, the stop, a plan ending. */
  | 'reminder'
  | 'countdown'
  | 'auto-stop'
  | 'plan-ending'
  /** The availability watch (src/main/availability): stock came, a launch made or not made, a watch ended. */
  | 'stock'
  /** A spot instance the provider reclaimed. */
  | 'reclaimed'
  /** A job (Run a job…) ended: how, with "Open". */
  | 'job'

/**
 * A button on a notification. Real buttons exist only on some desktops (Electron's `actions` are
 * macOS-only); everywhere else a click opens the window at the instance, where the same choices
 * are shown, and the web shell's toast carries them as buttons.
 */
export interface NotificationAction {
  /** The cost guard's `keep-running`, `stop-now`; the watch's `launch-now`, `dismiss`; a reclaim's `relaunch`; a job's `open-job` (its terminal, `jobId`). */
  id: 'keep-running' | 'stop-now' | 'launch-now' | 'dismiss' | 'relaunch' | 'open-job'
  label: string
}

export interface AppNotification {
  id: string
  kind: NotificationKind
  title: string
  body: string
  /** Clicking the notification opens the app at this instance. */
  instanceId?: string
  /** Choices offered with it (the cost guard's "Keep running", "Stop now"); they act on `instanceId`. */
  actions?: NotificationAction[]
  /** The availability watch it is about: a click and its actions act on that watch. */
  watchId?: string
  /** A job's notification: the job "Open" opens. */
  jobId?: string
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
  /** macOS: text beside the icon in the menu bar (the burn rate, when the user asks for it). */
  title?: string
}

export type NavigateTarget =
  | { view: 'login' }
  /**
   * `confirm`: from the tray, show that instance and ask: `stop` / `terminate` to confirm that
   * action, `notebook-password` for the password notebook pages need on an API-key session.
   * `show: 'forward-port'`: the tray's "Other port…": show that instance's "Forward a port" dialog.
   */
  | { view: 'instances'; instanceId?: string; confirm?: 'stop' | 'terminate' | 'notebook-password'; show?: 'forward-port' | 'run-job' }
  /** `fill`: the form filled in (a template, "Launch now", "Launch again"), at the review step when it says so. */
  | { view: 'create-instance'; fill?: LaunchFill }
  | { view: 'templates' }
  | { view: 'volumes' }
  | { view: 'create-volume' }
  /** `attach`: open a tab on that tmux session (a job's, or one the instance's panel lists), or show the tab that has it. */
  | { view: 'terminal'; instanceId: string; attach?: SessionRef }
  | { view: 'settings' }

// ---------------------------------------------------------------- settings

export type Theme = 'system' | 'light' | 'dark'

export interface Settings {
  notifications: { ready: boolean; failed: boolean; stopped: boolean; released: boolean; stuck: boolean }
  /** A start that stays in one status this many minutes is stuck (a back-off reported by the cloud is at once). */
  stuckStartMinutes: number
  /** Notify when the available balance falls below this many dollars; null: never. */
  lowBalanceThreshold: number | null
  /** Poll intervals in ms: fast while something changes, steady otherwise. */
  pollIntervals: { fastMs: number; steadyMs: number }
  /** Private key file used for SSH before the ~/.ssh defaults; null: defaults only. */
  sshKeyFile: string | null
  startAtLogin: boolean
  openWindowAtStart: boolean
  theme: Theme
  terminalFontSize: number
  terminals: TerminalSettings
  /**
   * Programs on the instance may set the clipboard (OSC 52). Off by default: a program that fills
   * the clipboard unseen could make the next paste run something.
   */
  terminalClipboardWrite: boolean
  costGuard: CostGuardSettings
  /** Which releases the updater installs: stable ones, or betas too. */
  updateChannel: UpdateChannel
}

/** What Cloud Tray does with terminal sessions on instances (Settings → Terminal). */
export interface TerminalSettings {
  /**
   * Profiles (by id) whose terminals run plain shells: by default a tab's shell lives in a tmux
   * session on the instance, which survives a dropped connection and a restart of the app.
   */
  plainShellProfiles: string[]
  /** "Don't show again" on the notice that an instance has no tmux. */
  hideNoTmuxNotice: boolean
  /** Closing a tab whose session keeps running: ask, or what the user chose to remember. */
  onCloseTab: 'ask' | 'leave-running' | 'end'
}

export type SettingsPatch = {
  [K in keyof Settings]?: Settings[K] extends object ? Partial<Settings[K]> : Settings[K]
}

// ---------------------------------------------------------------- app shell

export interface AppInfo {
  version: string
}

export interface Warning {
  id: string
  message: string
  /** The condition is over: the banner goes (`message` is empty). */
  cleared?: true
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
  'session.loginWithKey': { input: KeyLoginInput; result: SessionState }
  /** API-key session: the password, once, for the token notebook pages need. */
  'session.notebookSignIn': { input: { password: string }; result: SessionState }
  'session.logout': { input: void; result: SessionState }
  'instances.get': { input: void; result: InstancesSnapshot }
  /** Polls now (Ctrl/Cmd+R) and answers the fresh snapshot. */
  'instances.refresh': { input: void; result: InstancesSnapshot }
  /** One server page, for the list's pager. */
  'instances.page': { input: PagerRequest; result: ListInstancesResponse }
  /**
   * `notMine`: after a `maybe-created` error, the user chose "Create anyway": those instances are
   * not taken as this attempt's. `origin`: a template's launch, or the launch a watch waited for.
   */
  'instances.create': {
    input: { request: CreateInstanceRequest; notMine?: string[]; origin?: LaunchOrigin }
    result: { instanceId: string }
  }
  'instances.stop': { input: { instanceId: string }; result: { instanceId: string } }
  'instances.terminate': { input: { instanceId: string }; result: { instanceId: string } }
  'volumes.list': { input: PagerRequest; result: Volume[] }
  'volumes.create': { input: CreateVolumeRequest; result: Volume }
  /** The cached catalog and the images, at once; a stale or missing catalog is read in the background (`catalog` event). */
  'catalog.get': { input: void; result: CatalogView }
  'catalog.refresh': { input: void; result: CatalogView }
  /** Names an image for the session's profile (adds it when new). */
  'images.save': { input: { imageId: string; label: string }; result: CatalogView }
  'images.remove': { input: { imageId: string }; result: CatalogView }
  'balance.get': { input: void; result: BalanceSnapshot }
  'balance.refresh': { input: void; result: BalanceSnapshot }
  /** The Sandbox's own console: an API key for its account (it has no console to make one in). */
  'sandbox.makeApiKey': { input: void; result: { username: string; key: string } }
  /** The Sandbox's practice money: adds $100 to its account's balance; answers the balance read after. */
  'sandbox.addMoney': { input: void; result: BalanceSnapshot }
  'settings.get': { input: void; result: Settings }
  'settings.update': { input: SettingsPatch; result: Settings }
  /** Runs a tray item's action (the Electron tray calls it in main; the web shell's tray panel from the page). */
  'tray.activate': { input: { itemId: string }; result: void }
  'notebook.open': { input: { instanceId: string }; result: { url: string } }
  /** Opens an http(s) URL in the system browser, after a check. */
  'external.open': { input: { url: string }; result: void }
  /**
   * The clipboard's text, read by main for the terminal's Paste: the app's page may not read the
   * clipboard itself (its permission policy denies `clipboard-read`). Fails with `not-allowed`
   * where the shell has no clipboard of its own (`npm run web`: the page asks the browser).
   */
  'clipboard.read': { input: void; result: { text: string } }
  'warnings.get': { input: void; result: Warning[] }
}

export interface CoreEvents {
  session: SessionState
  /**
   * The profiles changed under the window: the Sandbox finished starting (its address and its
   * password are known from then on; the window may open before), or a profile was edited.
   */
  profiles: ProfilesState
  /** Fires once, 10 minutes before expiry. */
  'session.expiring': { expiresAt: number }
  /** The session ended under a command; `pending` names the command waiting for re-login. */
  'session.expired': { pending: string | null }
  instances: InstancesSnapshot
  transitions: Transition[]
  'watch.health': WatchHealth
  navigate: NavigateTarget
  settings: Settings
  warning: Warning
  catalog: CatalogView
  balance: BalanceSnapshot
}

export type Commands = CoreCommands &
  SshCommands &
  TunnelCommands &
  FilesCommands &
  CostCommands &
  UpdateCommands &
  LaunchCommands &
  TerminalsCommands &
  JobsCommands &
  ProxyCommands
export type Events = CoreEvents &
  SshEvents &
  TunnelEvents &
  FilesEvents &
  CostEvents &
  UpdateEvents &
  LaunchEvents &
  JobsEvents &
  ProxyEvents
/** One-way messages from the renderer: no Result comes back; an invalid one is dropped and logged. */
export type Notices = SshNotices & FilesNotices

export type CommandName = keyof Commands
export type EventName = keyof Events
export type CommandInput<C extends CommandName> = Commands[C]['input']
export type CommandResult<C extends CommandName> = Commands[C]['result']
export type NoticeName = keyof Notices
export type NoticeInput<N extends NoticeName> = Notices[N]

/** What the preload exposes as `window.cloud`, and the web transport's client implements. */
export interface CloudBridge {
  invoke<C extends CommandName>(
    command: C,
    ...input: CommandInput<C> extends void ? [] : [CommandInput<C>]
  ): Promise<Result<CommandResult<C>>>
  /** Sends a notice; nothing comes back. */
  send<N extends NoticeName>(notice: N, input: NoticeInput<N>): void
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
  'session.loginWithKey',
  'session.notebookSignIn',
  'session.logout',
  'instances.get',
  'instances.refresh',
  'instances.page',
  'instances.create',
  'instances.stop',
  'instances.terminate',
  'volumes.list',
  'volumes.create',
  'catalog.get',
  'catalog.refresh',
  'images.save',
  'images.remove',
  'balance.get',
  'balance.refresh',
  'sandbox.makeApiKey',
  'sandbox.addMoney',
  'settings.get',
  'settings.update',
  'tray.activate',
  'notebook.open',
  'external.open',
  'clipboard.read',
  'warnings.get',
  'ssh.open',
  'ssh.close',
  'ssh.sessions',
  'ssh.endSession',
  'ssh.reconnect',
  'ssh.answer',
  'ssh.command',
  'ssh.configPreview',
  'ssh.configWrite',
  'ssh.forgetHostKey',
  'cost.get',
  'cost.setRules',
  'cost.keepRunning',
  'cost.quitOffer',
  'cost.stopAll',
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
  'files.download',
  'files.downloadToFolder',
  'files.cancel',
  'update.get',
  'update.check',
  'update.restart',
  'templates.list',
  'templates.save',
  'templates.rename',
  'templates.duplicate',
  'templates.delete',
  'templates.export',
  'templates.import',
  'templates.importFile',
  'templates.review',
  'templates.launch',
  'launches.again',
  'availability.get',
  'availability.watch',
  'availability.cancel',
  'availability.launchNow',
  'availability.setRelaunch',
  'terminals.restore',
  'terminals.save',
  'terminals.saveScrollback',
  'jobs.run',
  'jobs.list',
  'jobs.open',
  'jobs.remove',
  'proxy.get',
  'proxy.signIn',
  'proxy.cancel'
] as const satisfies readonly CommandName[]

export const NOTICE_NAMES = [
  'ssh.ack',
  'ssh.input',
  'ssh.resize',
  'ssh.eof',
  'files.chunk',
  'files.saved'
] as const satisfies readonly NoticeName[]

export const EVENT_NAMES = [
  'session',
  'profiles',
  'session.expiring',
  'session.expired',
  'instances',
  'transitions',
  'watch.health',
  'navigate',
  'settings',
  'warning',
  'catalog',
  'balance',
  'ssh.data',
  'ssh.written',
  'ssh.status',
  'ssh.prompt',
  'cost',
  'tunnels',
  'files.status',
  'files.transfer',
  'files.written',
  'files.data',
  'update',
  'templates',
  'availability',
  'launched',
  'reclaimed',
  'jobs',
  'proxy.auth'
] as const satisfies readonly EventName[]

/** IPC channel names: one per command (invoke), one per notice (send) and one per event. */
export const commandChannel = (name: CommandName): string => `cmd:${name}`
export const noticeChannel = (name: NoticeName): string => `notice:${name}`
export const eventChannel = (name: EventName): string => `evt:${name}`

// Compile-time check that the runtime lists above name every command and event.
type Exhaustive<Missing extends never> = Missing
export type _AllCommandsListed = Exhaustive<Exclude<CommandName, (typeof COMMAND_NAMES)[number]>>
export type _AllEventsListed = Exhaustive<Exclude<EventName, (typeof EVENT_NAMES)[number]>>
export type _AllNoticesListed = Exhaustive<Exclude<NoticeName, (typeof NOTICE_NAMES)[number]>>
