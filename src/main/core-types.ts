/**
 * The seams of the main process. `createAppCore` (core.ts) builds every capability from plain
 * Node parts and answers the contract; the two shells feed it what they have:
 * - Electron (index.ts): a Platform of Electron adapters (Tray, Notification, BrowserWindow,
 *   shell), and ipc.ts as transport;
 * - `npm run web` (src/web): a Platform that records and forwards to the page, and the
 *   WebSocket transport.
 */
import type { Instance } from '../shared/api'
import type { CloudClient, CloudClientOptions } from './cloud/types'
import type { ReachFactory } from '../emulator/reach-types'
import type { StartEmulator } from './account/sandbox'
import type { TrayContext } from './tray/tray-model'
import type {
  AppNotification,
  CommandInput,
  CommandName,
  CommandResult,
  EventName,
  Events,
  InstancesSnapshot,
  Profile,
  RecordedEffect,
  Result,
  SessionState,
  Settings,
  TrayModel
} from '../shared/contract'
import type { Clock } from '../shared/clock'

/** Identifies one connected renderer (an Electron webContents id, or a WebSocket client). */
export type ClientId = string

/** The client id of commands main runs itself (the Electron tray): no window to ask anything. */
export const MAIN_CLIENT: ClientId = 'main'

export interface ClientContext {
  clientId: ClientId
}

/** The OS keychain (see account/keychain.ts for the @napi-rs/keyring implementation). */
export interface Keychain {
  /** Throws KeychainUnavailableError when no keychain service can be reached. */
  get(account: string): Promise<string | null>
  set(account: string, secret: string): Promise<void>
  delete(account: string): Promise<void>
  /**
   * Whether the keychain can actually store a secret. Needed because some backends answer "no
   * entry" to reads when no Secret Service runs; only a write tells. Absent: assume it works.
   */
  probe?(): Promise<boolean>
}

export interface NotebookWindowRequest {
  profileId: string
  instanceId: string
  instanceName: string
  url: string
  /** The AccessToken cookie to set for exactly the notebook's origin (main only, never sent to a renderer). */
  cookie: { url: string; name: string; value: string; secure: boolean; httpOnly: boolean; sameSite: 'strict' | 'lax' | 'no_restriction' }
  /** Sandbox only: the emulator's self-signed certificate, pinned by SHA-256 fingerprint. */
  pinnedCertificateSha256?: string
}

/** Everything Electron-only that the core asks for. The web shell records these instead. */
export interface Platform {
  readonly shell: 'electron' | 'web'
  showNotification(notification: AppNotification): void
  setTray(model: TrayModel): void
  openNotebook(request: NotebookWindowRequest): Promise<void>
  /** After a re-login: refresh the cookie in open notebook windows. */
  refreshNotebookCookies(profileId: string, cookieValue: string): Promise<void>
  openExternal(url: string): Promise<void>
  /** Opens an editor's Remote-SSH link (src/main/ssh/editors.ts: checkEditorUrl) through the OS. */
  openEditor(url: string): Promise<void>
  setStartAtLogin(enabled: boolean): void
  /** Shows and focuses the main window (tray "Open Cloud Tray", a notification click). */
  showWindow(): void
  quit(): void
  /** Puts text on the clipboard (tray "Copy SSH command"). */
  writeClipboard?(text: string): void
  /**
   * Web shell: the core records each Electron-only effect it asks for (notebook window,
   * external URL, OS notification, clipboard) and passes it here too, e.g. to show on the page.
   */
  record?(effect: RecordedEffect): void
}

export type EventSink = <E extends EventName>(event: E, payload: Events[E], target?: ClientId) => void

export interface AppCoreOptions {
  /** The app's data folder: settings.json, sandbox state, known_hosts, logs. */
  dataDir: string
  platform: Platform
  keychain: Keychain
  clock?: Clock
  version: string
  /** `npm run web --base-url URL`: use this API instead of the embedded Sandbox. */
  baseUrlOverride?: string
  /** The cloud client to use; default: createCloudClient from src/main/cloud/client.ts. */
  cloudClientFactory?: (options: CloudClientOptions) => CloudClient
  /** Starts the Sandbox's emulator; default: startEmulator from src/emulator/index.ts. */
  startEmulator?: StartEmulator
  /** Makes Sandbox instances reachable (SSH, notebook, ports); src/emulator/reach (E1). */
  reach?: ReachFactory
  /** [0, 1) for poll jitter; injectable for deterministic tests. */
  random?: () => number
  /** The app log (src/main/log). The core adds the live token to its secrets, so it is scrubbed. */
  log?: CoreLog
}

/** What the core uses of the app log (src/main/log/logger.ts's Logger fits). */
export interface CoreLog {
  info(message: string, data?: unknown): void
  warn(message: string, data?: unknown): void
  error(message: string, data?: unknown): void
  readonly secrets: { add(secret: string | undefined | null): void; delete(secret: string | undefined | null): void }
}

export interface AppCore {
  /** Starts the Sandbox emulator if selected, resumes a remembered session, starts watching. */
  start(): Promise<void>
  stop(): Promise<void>
  /** Answers one contract command. Validates input; never rejects. */
  handle<C extends CommandName>(command: C, input: unknown, context: ClientContext): Promise<Result<CommandResult<C>>>
  /** Events for renderers; `target` set means only that client (terminal bytes). */
  subscribe(sink: EventSink): () => void
  /** A renderer went away: release what it owned (terminal sessions). */
  clientGone(clientId: ClientId): void
  /** Shows the window at an instance (a notification click); no id: the instance list. */
  openInstance(instanceId?: string): void
  /** Power and network hints from the shell. */
  onSystemEvent(event: SystemEvent): void
}

/**
 * What a command group (src/main/commands/*.ts) may use of the core. Groups are plain
 * functions of these services, so each is testable in Node with fakes or the emulator.
 */
export interface CoreServices {
  dataDir: string
  clock: Clock
  emit: EventSink
  platform: Platform
  /** The instance as the watcher last saw it. */
  findInstance(instanceId: string): Instance | undefined
  currentProfile(): Profile
  /** The current access token. Main-only: never put it in a result, event, log or error. */
  accessToken(): string | undefined
  settings(): Settings
  /** Set while the Sandbox profile's embedded emulator runs. */
  sandbox(): SandboxInfo | undefined
  /** Called on login, logout and expiry. Returns an unsubscribe function. */
  onSessionChange(listener: (state: SessionState) => void): () => void
  /** Called with every new instance snapshot from the watcher. Returns an unsubscribe function. */
  onSnapshot(listener: (snapshot: InstancesSnapshot) => void): () => void
  /** What a group adds to the tray (CommandGroup.trayContext) changed: the tray is built again. */
  trayChanged(): void
  /** Ask the watcher to look again soon (after create, stop, terminate). */
  pollSoon(reason: 'create' | 'stop' | 'terminate' | 'user'): void
  /**
   * The cloud client of the session's profile; the token is read at each request. Throws
   * AppError `no-session` when signed out. A `not-logged-in` rejection from it may be rethrown
   * as is: core expires the session and retries the command once after re-login.
   */
  cloud(): CloudClient
  sessionState(): SessionState
  /** Adds a warning for the user (shown as a banner; `warnings.get` lists them). */
  warn(id: string, message: string): void
}

export interface SandboxInfo {
  /** SHA-256 of the emulator's notebook certificate (DER), lowercase hex without colons. */
  notebookCertSha256: string
  /** Private key the app generated and registered with the Sandbox's SSH servers. */
  sshPrivateKeyPath: string
}

/** A group's handlers: plain async functions that return the value or throw CloudError/AppError. */
export type CommandHandlers = {
  [C in CommandName]?: (input: CommandInput<C>, context: ClientContext) => Promise<CommandResult<C>>
}

export interface CommandGroup {
  handlers: CommandHandlers
  /** A renderer went away. */
  clientGone?(clientId: ClientId): void
  /** Power and network hints (wake, back online), e.g. to reconnect now instead of after a backoff. */
  onSystemEvent?(event: SystemEvent): void
  /** What this group adds to the tray menu (e.g. active tunnels); read each time the tray is built. */
  trayContext?(): Partial<TrayContext>
  dispose?(): Promise<void> | void
}

export type SystemEvent = 'suspend' | 'resume' | 'online' | 'offline' | 'focus'
