/**
 * `node-pty` as it behaves on macOS when its prebuilt `spawn-helper` has lost its execute bit
 * (microsoft/node-pty#850): `spawn` throws "posix_spawnp failed." before any process exists.
 * Used only by the harness scenario of a shell that cannot start; everywhere else the real
 * node-pty runs.
 */
import { record } from './channel'

export function spawn(file: string, args: string[] | string): never {
  record('node-pty.spawn', undefined, [file, args])
  throw new Error('posix_spawnp failed.')
}

export const fork = spawn
export const createTerminal = spawn
