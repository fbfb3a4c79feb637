/**
 * The seams of the main process. `createAppCore` (core.ts) builds every capability from plain
 * Node parts and answers the contract; each shell feeds it what it has: a Platform and a
 * transport. Electron's (index.ts) are its adapters (Tray, Notification, BrowserWindow, shell)
 * and ipc.ts; `npm run web` brings its own from src/web.
 */
import type {
  AppNotification,
  CommandName,
  CommandResult,
  EventName,
  Events,
  NoticeName,
  NotificationAction,
  Result,
  TrayModel
} from '../shared/contract'
import type { QuitOffer } from '../shared/contract-cost'
import type { LaunchOrigin } from '../shared/contract-launch'
import type { CreateInstanceRequest } from '../shared/create-request'

/** Identifies one connected renderer (an Electron webContents id, or a WebSocket client). */
export type ClientId = string

/** The client id of commands main runs itself (the Electron tray): no window to ask anything. */
export const MAIN_CLIENT: ClientId = 'main'

/** The window to ask a connection's questions (host key, passphrase): none for main's own commands. */
export function windowToAsk(clientId: ClientId): ClientId | undefined {
  return clientId === MAIN_CLIENT ? undefined : clientId
}

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
  /**
   * Told true when a call has been out so long that it may be waiting for the user (an unlock
   * prompt), false when no such call is left; returns a function that stops listening.
   */
  watch?(listener: (waiting: boolean) => void): () => void
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

/** Everything Electron-only that the core asks for; a shell without Electron stands in for each. */
export interface Platform {
  showNotification(notification: AppNotification): void
  setTray(model: TrayModel): void
  openNotebook(request: NotebookWindowRequest): Promise<void>
  /** After a re-login: refresh the cookie in open notebook windows. */
  refreshNotebookCookies(profileId: string, cookieValue: string): Promise<void>
  /**
   * Before a sign-out: closes the profile's notebook windows (pop-ups too), asking once if a page
   * has unsaved work, and clears the profile's notebook sign-in (cookie and storage). Resolves
   * false when the user chose to stay signed in. Absent where there are no notebook windows.
   */
  endNotebookSession?(profileId: string): Promise<boolean>
  openExternal(url: string): Promise<void>
  /** Opens an editor's Remote-SSH link (src/main/ssh/config/editors.ts: checkEditorUrl) through the OS. */
  openEditor(url: string): Promise<void>
  setStartAtLogin(enabled: boolean): void
  /** Shows and focuses the main window (tray "Open Cloud Tray", a notification click). */
  showWindow(): void
  quit(): void
  /** Puts text on the clipboard (tray "Copy SSH command"). */
  writeClipboard?(text: string): void
  /** The clipboard's text (the terminal's Paste). Absent where the page reads its own (web shell). */
  readClipboard?(): Promise<string>
  /**
   * Saves a text file the user keeps (an exported launch template). Electron asks where with its
   * save dialog and writes it: the path, or null when the user cancelled. The web shell hands it
   * to the page that asked (`clientId`) as a download: `page`. Absent: this shell cannot save files.
   */
  saveFile?(file: SavedFile, clientId: ClientId | undefined): Promise<string | null | 'page'>
  /**
   * Asks the user for a text file and reads it, at most `maxBytes` (Electron's open dialog); null
   * when they cancelled. Absent where the page picks files itself (the web shell).
   */
  openFile?(request: { title: string; maxBytes: number; extensions: string[] }): Promise<{ name: string; text: string } | null>
  /**
   * The OS's folder dialog, in main (a download's destination); undefined when the user cancels.
   * Absent where the window picks its own folder (the web shell's File System Access).
   */
  pickFolder?(): Promise<string | undefined>
  /**
   * Holds the computer awake (no idle sleep) from `true` until `false`: told once when the first
   * upload or download begins and once after the last ends (power/keep-awake.ts). Absent where
   * the shell cannot hold the OS's sleep (the web shell).
   */
  keepAwake?(hold: boolean): void
}

/** A text file for the user to keep: what it is called by default, what the dialog says, what it holds. */
export interface SavedFile {
  title: string
  defaultName: string
  text: string
  /** File-type filter of the save dialog, e.g. `json`. */
  extensions: string[]
}

/**
 * The Create button's own command (`instances.create`) as main runs it, for a launch it makes itself
 * (a watch's, a template's without the window): create-once, this app's own action, told as `launched`.
 */
export type CreateCommand = (request: CreateInstanceRequest, origin: LaunchOrigin) => Promise<Result<{ instanceId: string }>>

export type EventSink = <E extends EventName>(event: E, payload: Events[E], target?: ClientId) => void

/** Main's events as a part follows them (event-hub.ts): heard after the transports, in the order parts began to listen. */
export interface EventFeed {
  /** Returns a function that stops listening. */
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void
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
  /** Takes one notice (a keystroke, an ack): validated, never answered; an invalid one is dropped and logged. */
  notice<N extends NoticeName>(notice: N, input: unknown, context: ClientContext): void
  /** Events for renderers; `target` set means only that client (terminal bytes). */
  subscribe(sink: EventSink): () => void
  /** A renderer went away: release what it owned (terminal sessions). */
  clientGone(clientId: ClientId): void
  /**
   * The desktop's notification was clicked (`action` absent) or one of its buttons pressed: the
   * core does what the window's own buttons would (open the instance, Keep running, Launch now…).
   */
  notificationActivated(notification: AppNotification, action?: NotificationAction['id']): void
  /** Power and network hints from the shell. */
  onSystemEvent(event: SystemEvent): void
  /** What Quit offers to stop (Settings → Cost guard); null when the setting is off or nothing runs. */
  quitOffer(): QuitOffer | null
  /**
   * The user name and password this run has for a proxy (`host:port`): a notebook window's
   * proxy challenge is answered with them (notebook/proxy-login.ts). Main only.
   */
  proxyCredential(hostPort: string): { username: string; password: string } | undefined
  /**
   * A notebook window met a proxy's challenge it could not answer (`refusedGiven`: it answered
   * with the credentials above and was refused): the window is asked, so the next open works.
   */
  proxyChallenged(proxyUri: string, target: string, refusedGiven: boolean): void
}

export type SystemEvent = 'suspend' | 'resume' | 'online' | 'offline' | 'focus'
