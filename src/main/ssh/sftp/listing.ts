/**
 * A folder's entries, read from the instance's SFTP server page by page with bounds: at most
 * MAX_LIST_ENTRIES entries and MAX_LIST_BYTES of names, within LIST_TIMEOUT_MS on the app's
 * clock. ssh2's `readdir(path)` keeps asking until the server says the end, holding everything;
 * a server that never says it (#21: 1,000 new names a page, forever) grew main without limit.
 * Past a bound the folder handle is closed and the user is told what happened and what to do.
 * Only each entry's name and attributes are kept (the `ls -l` line a server also sends is not).
 */
import type { FileEntryWithStats } from 'ssh2'
import type { Clock } from '../../../shared/clock'
import { AppError } from '../../app-error'
import type { Deadline } from './deadline'
import { checkAbsolute } from './remote-path'
import type { SftpClient } from './sftp-client'
import { sftpFailure } from './sftp-errors'

/** The most entries one folder may list (downloads take at most as many items). */
export const MAX_LIST_ENTRIES = 100_000
/** The most bytes of names (and the `ls -l` lines that come with them) one listing may carry. */
export const MAX_LIST_BYTES = 32 * 1024 * 1024
/** How long one folder's listing may take, first page to last. */
export const LIST_TIMEOUT_MS = 30_000

export interface ListedEntry {
  filename: string
  attrs: FileEntryWithStats['attrs']
}

export interface ListLimits {
  maxEntries?: number
  maxBytes?: number
  timeoutMs?: number
  /**
   * The caller's own limit (a download's whole walk): when it passes, the listing stops with its
   * error and the handle is closed, as at the listing's own bounds.
   */
  within?: Deadline
}

/** The entries of `path` (`.` and `..` left out), or an AppError in the user's words. */
export async function listFolder(sftp: SftpClient, path: string, clock: Clock, limits: ListLimits = {}): Promise<ListedEntry[]> {
  return (await readFolder(sftp, path, clock, { ...limits, resolve: false })).entries
}

/**
 * Like listFolder; with `resolve`, the path is first resolved by the server (`realpath`) within
 * the same time, and the answer must be a plain absolute path (remote-path.ts).
 */
export async function readFolder(
  sftp: SftpClient,
  path: string,
  clock: Clock,
  options: ListLimits & { resolve: boolean }
): Promise<{ path: string; entries: ListedEntry[] }> {
  const maxEntries = options.maxEntries ?? MAX_LIST_ENTRIES
  const maxBytes = options.maxBytes ?? MAX_LIST_BYTES
  const timeoutMs = options.timeoutMs ?? LIST_TIMEOUT_MS
  let handle: Buffer | undefined
  let over: AppError | undefined
  let timer: ReturnType<Clock['setTimeout']> | undefined
  // The server may never answer a page at all: the clock ends the wait, and the handle is closed.
  const timedOut = new Promise<never>((_, reject) => {
    timer = clock.setTimeout(() => {
      over = new AppError(
        'io',
        `The instance did not finish listing “${path}” within ${Math.round(timeoutMs / 1000)} s, so Cloud Tray stopped waiting. Try again; if it keeps happening, look inside from the terminal (ls).`
      )
      reject(over)
    }, timeoutMs)
  })
  timedOut.catch(() => undefined)
  const bounded = <T>(work: Promise<T>): Promise<T> => {
    const raced = Promise.race([work, timedOut])
    return options.within ? options.within.within(raced) : raced
  }
  try {
    let resolved = path
    if (options.resolve) {
      const answer = await bounded(sftp.realpath(path))
      const checked = checkAbsolute(answer)
      if (!checked.ok) throw (over = new AppError('io', `The instance answered an odd place for “${path}” (it ${checked.problem}).`))
      resolved = checked.value
    }
    const opening = sftp.opendir(resolved)
    handle = await bounded(opening).catch((error: unknown) => {
      // Stopped waiting before the server answered: a handle it sends later is closed too.
      void opening.then((late) => sftp.close(late)).catch(() => undefined)
      throw error
    })
    const entries: ListedEntry[] = []
    let bytes = 0
    for (;;) {
      const page = await bounded(sftp.readdirPage(handle))
      if (page === undefined) return { path: resolved, entries }
      for (const entry of page) {
        bytes += entry.filename.length + (typeof entry.longname === 'string' ? entry.longname.length : 0) + 64
        if (entry.filename === '.' || entry.filename === '..') continue
        entries.push({ filename: entry.filename, attrs: entry.attrs })
      }
      if (entries.length > maxEntries || bytes > maxBytes) {
        throw (over = new AppError(
          'not-allowed',
          `“${path}” lists more than ${maxEntries.toLocaleString('en-US')} entries${bytes > maxBytes ? ' (or very long names)' : ''}, so Cloud Tray stopped reading it. Open a sub-folder, or look inside from the terminal (ls | head).`
        ))
      }
    }
  } catch (error) {
    if (over) throw over
    if (options.within?.passed) throw options.within.passed
    throw sftpFailure(error, { action: 'list', path })
  } finally {
    clock.clearTimeout(timer)
    if (handle) void sftp.close(handle).catch(() => undefined)
  }
}
