/**
 * What the core's own command groups (session, profiles, settings, tray, app) use beyond
 * CoreServices: the stores and the session itself. Groups written elsewhere (ssh, notebook)
 * only get CoreServices.
 */
import type {
  AppInfo,
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
import type { CreateInstanceRequest } from '../shared/create-request'

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
  /** Runs a contract command as if a renderer had sent it (the tray uses notebook.open, ssh.command). */
  invoke<C extends 'notebook.open' | 'ssh.command'>(command: C, input: { instanceId: string }): Promise<Result<CommandResult<C>>>
}
