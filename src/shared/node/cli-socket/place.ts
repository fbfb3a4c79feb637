/**
 * Where the command line finds the running app: one folder per user, only theirs (0700), holding
 * the socket (`cli.sock`, 0600) and, for a moment per connection, each client's proof file
 * (protocol.ts). The app and `cloud-tray` compute it the same way from the environment, so
 * neither needs to be told: `$XDG_RUNTIME_DIR/cloud-tray` where the session has one (Linux: a
 * tmpfs only the user can enter, emptied at logout), else a folder under the user's own
 * application data. On Windows the socket is a named pipe whose name is derived from the user's
 * profile folder; the folder still holds the proofs.
 *
 * `CLOUD_TRAY_RUNTIME_DIR` puts it elsewhere (tests, and two apps side by side); it names a
 * place, never a secret.
 */
import { createHash } from 'node:crypto'
import { join, win32 } from 'node:path'

export interface CliSocketPlace {
  /** The folder: 0700 and the user's own (checked by both sides; see the server). */
  dir: string
  /** What the app listens on and clients connect to. */
  path: string
  /** A named pipe (Windows): no socket file, no owner or mode to check. */
  pipe: boolean
}

export const RUNTIME_DIR_ENV = 'CLOUD_TRAY_RUNTIME_DIR'
const SOCKET_NAME = 'cli.sock'

export interface PlaceInputs {
  platform: NodeJS.Platform
  env: Readonly<Record<string, string | undefined>>
  home: string
}

/** Unix sockets' paths are short (104 bytes on macOS, 108 on Linux): a longer one is refused up front. */
export const MAX_SOCKET_PATH = 100

export function cliSocketPlace({ platform, env, home }: PlaceInputs): CliSocketPlace {
  const override = env[RUNTIME_DIR_ENV]
  if (platform === 'win32') {
    const dir = override || win32.join(env['LOCALAPPDATA'] || win32.join(home, 'AppData', 'Local'), 'cloud-tray', 'run')
    // Pipes share one namespace on the machine: the name is per user (a hash of the profile
    // folder, or of the chosen folder), and the proofs (protocol.ts) make up for the ACL Node
    // cannot set on a pipe.
    const tag = createHash('sha256').update(dir.toLowerCase()).digest('hex').slice(0, 16)
    return { dir, path: `\\\\.\\pipe\\cloud-tray-cli-${tag}`, pipe: true }
  }
  const runtime = env['XDG_RUNTIME_DIR']
  const dir = override
    ? override
    : runtime && runtime.startsWith('/')
      ? join(runtime, 'cloud-tray')
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support', 'cloud-tray', 'run')
        : join(env['XDG_STATE_HOME'] || join(home, '.local', 'state'), 'cloud-tray', 'run')
  return { dir, path: join(dir, SOCKET_NAME), pipe: false }
}

/** The place for this process. */
export function currentCliSocketPlace(home: string): CliSocketPlace {
  return cliSocketPlace({ platform: process.platform, env: process.env, home })
}
