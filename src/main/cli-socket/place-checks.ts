/**
 * The socket's folder and file, checked when the app starts serving and again on every
 * connection. What is checked, and why it is enough where Node cannot ask the kernel who the
 * peer is (no SO_PEERCRED / getpeereid in Node):
 *
 * - the folder is a real folder (not a link), owned by the app's uid, with no access for group
 *   or others (0700): connect(2) needs search permission on every folder of the path, so no
 *   other user (root aside) can reach the socket at all;
 * - the socket is a socket owned by the app's uid with mode 0600, and is the one the app made
 *   (same inode): nobody swapped it;
 * - each connection's client then proves its uid with a file in that folder (protocol.ts,
 *   peer-proof.ts), which holds even if a mode was loosened after the start.
 *
 * The app refuses to start serving in a folder that is someone else's, a link, or open to
 * others, and says how to fix it; it never loosens or takes over anything it did not make.
 * Named pipes (Windows) have no owner or mode Node can read: there, the proof alone checks.
 */
import { lstatSync, type Stats } from 'node:fs'
import { lstat, mkdir, unlink } from 'node:fs/promises'
import type { CliSocketPlace } from '../../shared/node/cli-socket/place'
import { folderProblem, myUid, socketProblem } from '../../shared/node/cli-socket/place-rules'

/** The app will not serve the command line here; `message` says why and what to do. */
export class CliPlaceError extends Error {
  override name = 'CliPlaceError'
}

/** Makes the folder (0700) if it is missing, then checks it. Throws CliPlaceError. */
export async function prepareFolder(place: CliSocketPlace): Promise<void> {
  await mkdir(place.dir, { recursive: true, mode: 0o700 })
  const problem = folderProblem(place.dir, await lstat(place.dir))
  if (problem) throw new CliPlaceError(problem)
}

/**
 * Checked on every connection, synchronously before anything is read: the folder and the socket
 * are still as the app made them. Answers the problem in words, or undefined.
 */
export function placeProblemNow(place: CliSocketPlace, socketIno: number | undefined): string | undefined {
  if (place.pipe) return undefined
  try {
    return folderProblem(place.dir, lstatSync(place.dir)) ?? socketProblem(place.path, lstatSync(place.path), socketIno)
  } catch (error) {
    return `${place.path} cannot be checked: ${(error as Error).message}`
  }
}

/**
 * Before listening, the path must be free. A socket left there by an app that crashed is
 * replaced, but only once connecting to it shows nobody answers, and only if it is ours; a live
 * one (another Cloud Tray serving) is left alone ('busy'), and anything else is refused.
 */
export async function claimSocketPath(
  place: CliSocketPlace,
  connectProbe: (path: string) => Promise<'answered' | 'refused' | 'gone'>
): Promise<'free' | 'busy'> {
  if (place.pipe) return (await connectProbe(place.path)) === 'answered' ? 'busy' : 'free'
  let stats: Stats
  try {
    stats = await lstat(place.path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'free'
    throw error
  }
  if (!stats.isSocket())
    throw new CliPlaceError(`${place.path} is not a socket; Cloud Tray leaves it alone. Remove it to use the command line.`)
  const me = myUid()
  if (me !== undefined && stats.uid !== me)
    throw new CliPlaceError(`${place.path} belongs to another user (uid ${stats.uid}); Cloud Tray leaves it alone.`)
  const probe = await connectProbe(place.path)
  if (probe === 'answered') return 'busy'
  if (probe === 'refused') {
    // Nobody listens: a crashed app's leftover. Unlinked by name: the folder is ours alone (checked before).
    await unlink(place.path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error
    })
  }
  return 'free'
}
