/** What a subcommand runs with: the terminal, where the app is, and the global options. */
import type { CliSocketPlace } from '../shared/node/cli-socket/place'
import type { Io } from './output'

export interface CliContext {
  io: Io
  place: CliSocketPlace
  /** `--start`: start the app hidden in the tray when it is not running. */
  start: boolean
  /** This command line's own file (the bundle): where the installed app is found for `--start`. */
  cliFile: string
}
