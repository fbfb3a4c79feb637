/**
 * How an instance's SFTP subsystem is started: OpenSSH's own `sftp-server` on the instance's
 * home, or, as a fault a test (or a curious user) asks for, one that cannot write:
 *
 * - `read-only`: `sftp-server -R`, which refuses every change with SSH_FX_PERMISSION_DENIED,
 *   exactly what a folder the user may not write gives, whoever runs it (root included, which
 *   file modes cannot stop);
 * - `disk-full`: `sftp-server` in a private mount namespace where the home is a tmpfs of
 *   SMALL_DISK_BYTES, so writes fail with the kernel's own ENOSPC once it is full (sftp-server
 *   reports that as a plain SSH_FX_FAILURE, as it does on a real instance). As root `unshare
 *   --mount` needs nothing more; any other user gets a user namespace, which Debian allows by
 *   default. Nothing outside that one process sees the mount.
 *
 * The Debian sshd test fixture starts the same commands through a wrapper (openssh-server.ts).
 */
import { existsSync } from 'node:fs'
import type { SftpFault } from '../reach-types'

export type { SftpFault } from '../reach-types'

export const SFTP_FAULTS: readonly SftpFault[] = ['none', 'read-only', 'disk-full']

/** The size of the full disk: a few small files fit, a 1 MiB upload does not. */
export const SMALL_DISK_BYTES = 256 * 1024

const SFTP_SERVERS = [
  '/usr/lib/openssh/sftp-server',
  '/usr/libexec/sftp-server',
  '/usr/lib/ssh/sftp-server',
  '/usr/libexec/openssh/sftp-server'
]

export function sftpServerPath(): string | undefined {
  return SFTP_SERVERS.find((path) => existsSync(path))
}

export interface Command {
  file: string
  args: string[]
}

/** The command that serves SFTP on `home` with `fault`; undefined when this machine has no sftp-server. */
export function sftpServerCommand(fault: SftpFault, home: string, isRoot = process.getuid?.() === 0): Command | undefined {
  const server = sftpServerPath()
  if (!server) return undefined
  switch (fault) {
    case 'none':
      return { file: server, args: [] }
    case 'read-only':
      return { file: server, args: ['-R'] }
    case 'disk-full': {
      const namespace = isRoot ? ['--mount'] : ['--user', '--map-root-user', '--mount']
      // "$1" is the home, "$2" the server: both arguments, never parts of the script.
      const script = `mount -t tmpfs -o size=${SMALL_DISK_BYTES} cloudtray-full-disk "$1" && cd "$1" && exec "$2"`
      return { file: 'unshare', args: [...namespace, '--propagation', 'private', 'sh', '-c', script, 'sh', home, server] }
    }
  }
}
