/**
 * What the core's own command groups (session, profiles, settings, tray, app) use beyond
 * CoreServices: the stores and the session itself. Groups written elsewhere (ssh, notebook)
 * only get CoreServices.
 */
import type {
  AppInfo,
  CommandInput,
  CommandResult,
  Result,
  InstancesSnapshot,
  LoginInput,
  ProfileInput,
  ProfilesState,
  RecordedEffect,
  SessionState,
  Settings,
  SettingsPatch,
  Suggestions,
  TrayModel,
  Warning
} from '../shared/contract'
import type { CreateInstanceRequest } from '../shared/api'
import type { ClientContext } from './core-types'

/** The commands tray items run. */
export type TrayCommand = 'notebook.open' | 'ssh.command' | 'tunnels.start' | 'tunnels.stop' | 'tunnels.open' | 'tunnels.list'

export interface CoreInternals {
  appInfo(): AppInfo
  profiles(): ProfilesState
  saveProfile(input: ProfileInput): Promise<ProfilesState>
  removeProfile(id: string): Promise<ProfilesState>
  selectProfile(id: string): Promise<ProfilesState>
  login(input: LoginInput): Promise<SessionState>
  logout(): Promise<SessionState>
  snapshot(): InstancesSnapshot
  /** Polls now (if signed in) and answers the snapshot after that poll. */
  refresh(): Promise<InstancesSnapshot>
  /** Records an action this app took, so the notification policy does not announce it as news. */
  noteAction(action: 'create' | 'stop' | 'terminate', instanceId: string): void
  /** Forgets a noted stop/terminate whose request failed. */
  forgetAction(action: 'stop' | 'terminate', instanceId: string): void
  rememberLaunch(request: CreateInstanceRequest): Promise<void>
  suggestions(): Suggestions
  updateSettings(patch: SettingsPatch): Promise<Settings>
  tray(): TrayModel
  warnings(): Warning[]
  recorded(): RecordedEffect[]
  /**
   * Runs a contract command as the tray's item would (notebook.open, ssh.command, tunnels.*), for
   * `context`'s client (the web shell's page) or for main (the Electron tray) when absent.
   */
  invoke<C extends TrayCommand>(command: C, input: CommandInput<C>, context?: ClientContext): Promise<Result<CommandResult<C>>>
}
