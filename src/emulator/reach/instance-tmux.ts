/**
 * tmux inside an emulated instance. The instances' shells are processes on this machine, so
 * without care every instance (and the person running the emulator) would share one tmux
 * server per user (`/tmp/tmux-<uid>/`): each instance gets its own socket folder instead
 * (`TMUX_TMPDIR`), named from its home so it is the same after the emulator restarts, and short,
 * since a Unix socket's path is limited to about 100 bytes.
 *
 * A tmux server outlives the shell that started it, as on a real machine: it keeps running when
 * the emulator quits (an instance that stays up while the app is closed) and ends when the
 * instance stops, is terminated, or when a test ends every instance's sessions.
 *
 * An instance can be made to lack tmux (`faults.tmux`): a `tmux` first on its PATH that answers
 * as a shell does for a command it cannot find.
 */
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readdir, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The shell's answer for a command that is not installed, with its exit status. */
export const MISSING_TMUX_SCRIPT = `#!/bin/sh
# Installed by the Cloud Tray emulator (faults.tmux): this instance has no tmux.
echo "sh: 1: tmux: not found" >&2
exit 127
`

/** The instance's own tmux socket folder (its sessions' TMUX_TMPDIR). */
export function tmuxDirFor(home: string, root: string = shortTempRoot()): string {
  return join(root, `ct-tmux-${createHash('sha256').update(home).digest('hex').slice(0, 12)}`)
}

/** /tmp where there is one (short paths for sockets), else the system's temp folder. */
function shortTempRoot(): string {
  return process.platform !== 'win32' && existsSync('/tmp') ? '/tmp' : tmpdir()
}

/** Ends every tmux server whose socket is in `dir` (the instance stopped) and removes the folder. */
export async function endTmuxServers(dir: string): Promise<void> {
  await Promise.all((await socketsIn(dir)).map((socket) => killServer(socket)))
  await rm(dir, { recursive: true, force: true })
}

/** The clients attached on the tmux servers whose sockets are in `dir`, by name (their terminal's path). */
export async function tmuxClientsIn(dir: string): Promise<string[]> {
  const names = await Promise.all((await socketsIn(dir)).map((socket) => clientsOf(socket)))
  return names.flat()
}

async function socketsIn(dir: string): Promise<string[]> {
  const owners = await readdir(dir).catch(() => [] as string[])
  const sockets: string[] = []
  for (const owner of owners) {
    const names = await readdir(join(dir, owner)).catch(() => [] as string[])
    for (const name of names) sockets.push(join(dir, owner, name))
  }
  return sockets
}

function clientsOf(socket: string): Promise<string[]> {
  return new Promise((resolve) => {
    execFile('tmux', ['-S', socket, 'list-clients', '-F', '#{client_name}'], { timeout: 5_000 }, (error, stdout) =>
      resolve(error ? [] : stdout.split('\n').filter(Boolean))
    )
  })
}

function killServer(socket: string): Promise<void> {
  return new Promise((resolve) => {
    execFile('tmux', ['-S', socket, 'kill-server'], { timeout: 5_000 }, () => resolve())
  })
}

/** Puts (or removes) the stand-in that makes `tmux` missing on the instance's PATH. */
export async function setTmuxMissing(binDir: string, missing: boolean): Promise<void> {
  const path = join(binDir, 'tmux')
  if (missing) await writeFile(path, MISSING_TMUX_SCRIPT, { mode: 0o755 })
  else await unlink(path).catch(() => undefined)
}
