/**
 * What the command line's folder and socket must be, the one rule both sides apply: the app
 * before serving and on every connection (src/main/cli-socket/place-checks.ts), `cloud-tray`
 * before it connects (src/cli/app-client.ts), so neither talks through a place another user
 * could have prepared.
 */
import type { Stats } from 'node:fs'

const octal = (mode: number): string => (mode & 0o777).toString(8).padStart(4, '0')

/** The process's uid; undefined where the OS has none (Windows). */
export function myUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined
}

/** What is wrong with the folder, in words; undefined when it is fine. */
export function folderProblem(dir: string, stats: Stats, me = myUid()): string | undefined {
  if (stats.isSymbolicLink()) return `${dir} is a link; the command line's folder must be a real folder.`
  if (!stats.isDirectory()) return `${dir} is not a folder.`
  if (me !== undefined && stats.uid !== me) return `${dir} belongs to another user (uid ${stats.uid}).`
  if (me !== undefined && (stats.mode & 0o077) !== 0) {
    return `${dir} is open to other users (mode ${octal(stats.mode)}); it must be 0700. Run chmod 700 '${dir}' (or remove the folder) and start Cloud Tray again.`
  }
  return undefined
}

/** What is wrong with the socket file, in words; undefined when it is fine. */
export function socketProblem(path: string, stats: Stats, expectedIno: number | undefined, me = myUid()): string | undefined {
  if (!stats.isSocket()) return `${path} is not a socket.`
  if (me !== undefined && stats.uid !== me) return `${path} belongs to another user (uid ${stats.uid}).`
  if ((stats.mode & 0o077) !== 0) return `${path} is open to other users (mode ${octal(stats.mode)}); it must be 0600.`
  if (expectedIno !== undefined && stats.ino !== expectedIno) return `${path} was replaced by another file.`
  return undefined
}
