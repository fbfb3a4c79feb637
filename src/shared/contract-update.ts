/**
 * Updates of the installed app (src/main/update): what the window and the tray are told, and the
 * commands they send. The web shell and development runs have no updater (`unsupported`).
 */

export type UpdateChannel = 'stable' | 'beta'

/** What holds a restart back: it would cut these off. */
export interface UpdateBlockers {
  terminals: number
  tunnels: number
  transfers: number
}

export interface UpdateState {
  status: 'unsupported' | 'idle' | 'checking' | 'up-to-date' | 'downloading' | 'ready' | 'failed'
  /** The running version. */
  current: string
  /** The version found, downloading, or downloaded and verified (ready to install on restart). */
  version?: string
  /** Download progress, 0–100. */
  percent?: number
  /** When the feed was last asked (epoch ms). */
  checkedAt?: number
  /** A failed check or download, in the user's words: a quiet line in Settings, never a dialog. */
  error?: string
  /** A restart the user asked for, waiting until these are closed (or "Restart now anyway"). */
  waitingFor?: UpdateBlockers
  channel: UpdateChannel
}

export interface UpdateCommands {
  'update.get': { input: void; result: UpdateState }
  /** Asks the feed now (the app also does at start and every 6 hours). */
  'update.check': { input: void; result: UpdateState }
  /** Installs the downloaded update and restarts: at once when nothing is open, else once it closes; `anyway` closes it. */
  'update.restart': { input: { anyway: boolean }; result: UpdateState }
}

export interface UpdateEvents {
  update: UpdateState
}

export const UPDATE_COMMAND_NAMES = ['update.get', 'update.check', 'update.restart'] as const
