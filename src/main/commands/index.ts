/**
 * Every command group the core serves. Adding a capability's commands is one line here.
 * Commands of the contract that no group handles answer an `internal` "not available yet"
 * error from core.ts, so the renderer can be built against the whole contract today.
 */
import type { CommandGroup, CoreServices } from '../core-types'
import type { CoreInternals } from '../core-internals'
import { appCommands } from './app'
import { instanceCommands } from './instances'
import { notebookCommands } from './notebook'
import { profileCommands } from './profiles'
import { sessionCommands } from './session'
import { settingsCommands } from './settings'
import { sshCommands } from './ssh'
import { trayCommands } from './tray'
import { volumeCommands } from './volumes'

/** Groups outside the core (ssh, notebook) use only `services`; the core's own also get `internals`. */
export type CommandGroupFactory = (services: CoreServices, internals: CoreInternals) => CommandGroup

export const COMMAND_GROUPS: readonly CommandGroupFactory[] = [
  appCommands,
  profileCommands,
  sessionCommands,
  instanceCommands,
  volumeCommands,
  settingsCommands,
  trayCommands,
  notebookCommands,
  sshCommands
]
