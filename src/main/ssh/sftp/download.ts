/**
 * One download: the chosen files and whole folders are walked first (the window learns every
 * item before a byte moves, and makes the folders), then each file is read with a pipelined
 * reader and its bytes go to the window in order, never more than FILES_WINDOW ahead of what the
 * window has saved. Links to files are followed; links to folders are not (a loop would never
 * end), and the summary says how many were left out.
 *
 * Every name comes from the instance and is checked here, in main, before the window sees it
 * (local-names.ts): names no file can have are left out, names unsafe on this computer are
 * renamed, and the summary says which. Each folder is listed with bounds (listing.ts), and the
 * walk as a whole within WALK_TIMEOUT_MS on the app's clock.
 */
import type { Stats } from 'ssh2'
import { FILES_WINDOW, type TransferItem } from '../../../shared/contract-files'
import { AppError } from '../../app-error'
import { Deadline } from './deadline'
import { listFolder, MAX_LIST_BYTES } from './listing'
import { folderNames, localNameFor, NameReport } from './local-names'
import { joinRemote, nameOf } from './remote-path'
import { FileLanes, type TransferLink } from './lanes'
import { PipelinedReader, type SftpClient } from './sftp-client'
import { sftpFailure } from './sftp-errors'
import { Transfer, type TransferOptions } from './transfer'

/** More than this many items in one download is refused (the window lists each). */
export const MAX_DOWNLOAD_ITEMS = 100_000

/**
 * How long the walk of one download may take in all. Each folder's listing has its own 30 s
 * (listing.ts), but an instance answering each of many folders just inside it (#21) kept
 * `files.download` waiting until the panel closed. The largest download allowed, 100,000 items
 * in some 1,000 folders, costs 2 round trips a folder (open, the last page) and one per 100 names
 * (sftp-server's page): some 3,000 round trips, 2½ minutes at the 50 ms of a far region. Twice
 * that leaves room for a slower link; a walk still going then is one the user has given up on.
 */
export const WALK_TIMEOUT_MS = 5 * 60_000

/**
 * The most bytes of names a walk holds listed but not yet gone through. The walk goes deep
 * first, so every folder on the way down keeps its listing until its sub-folders are done: an
 * instance whose folders each list many entries, or very long names, would otherwise grow main's
 * memory by a listing (up to MAX_LIST_BYTES) per level. Two whole listings' worth.
 */
export const MAX_PENDING_NAME_BYTES = 2 * MAX_LIST_BYTES

export interface DownloadOptions extends TransferOptions {
  /** Sends bytes of item `item` at `offset` to the window. */
  send: (item: number, offset: number, data: Uint8Array) => void
  /** Whose file names rules apply (local-names.ts); default this computer's. */
  platform?: NodeJS.Platform
}

interface Planned extends TransferItem {
  remote: string
  /** The modification time the walk saw (SFTP's, in seconds): a resumed file must still have it. */
  modifiedAt: number
}

export class Download extends Transfer {
  private saved = 0
  private started = false
  private reader: PipelinedReader | undefined
  private wake: (() => void) | undefined

  private constructor(
    private readonly download: DownloadOptions,
    private readonly planned: readonly Planned[],
    readonly skippedLinks: number,
    private readonly names: NameReport
  ) {
    super(download, 'download', planned)
  }

  /** Walks `paths` on the instance and makes the download (nothing moves until the window is ready). */
  static async plan(options: DownloadOptions, sftp: SftpClient, paths: readonly string[]): Promise<Download> {
    // Every wait of the walk is within it, and the folder being listed then is closed (listing.ts).
    // Nothing is made before the walk ends (no transfer, no sink), so failing here leaves nothing behind.
    const deadline = new Deadline(options.clock, WALK_TIMEOUT_MS, () => walkTooLong(walk.folders))
    const walk: Walk = { sftp, options, planned: [], links: 0, names: new NameReport(), folders: 0, deadline, pending: 0, pendingBytes: 0 }
    try {
      for (const path of paths) {
        const local = localNameFor(nameOf(path), options.platform)
        if (!local.ok) walk.names.leave(nameOf(path), local.why)
        else {
          if (local.renamed) walk.names.rename(nameOf(path), local.name)
          await visit(walk, path, local.name)
        }
      }
    } finally {
      deadline.clear()
    }
    return new Download(options, walk.planned, walk.links, walk.names)
  }

  get items(): TransferItem[] {
    return this.planned.map(({ path, kind, size }) => ({ path, kind, size }))
  }

  /** The window has saved `bytes` in all; the first report (0) says it is ready. */
  savedUpTo(bytes: number): void {
    this.saved = Math.max(this.saved, bytes)
    this.started = true
    this.progress({ bytesDone: this.saved })
    this.wake?.()
    this.reader?.more()
  }

  protected override stopped(): void {
    this.reader?.stop()
    this.wake?.()
  }

  protected async run(link: TransferLink): Promise<void> {
    await this.ready()
    let before = 0
    for (const [index, item] of this.planned.entries()) {
      this.progress({ current: item.path })
      if (item.kind === 'file') {
        await this.file(link, index, item, before)
        before += item.size
      }
      this.itemDone()
    }
    // Done once the window has saved every byte, so "done" means on the user's disk.
    while (this.saved < before && !this.stopping) await this.ready(true)
  }

  protected override note(): string | undefined {
    const links =
      this.skippedLinks > 0
        ? `${this.skippedLinks} ${this.skippedLinks === 1 ? 'link to a folder was' : 'links to folders were'} left out.`
        : undefined
    const names = this.names.note()
    return links && names ? `${links} ${names}` : (links ?? names)
  }

  /**
   * One file, read over its lanes and handed on in order. When the connection drops, the reader
   * on the next connection starts where the bytes handed on end (what the window or the disk sink
   * holds), once the file is seen unchanged (the size and modification time of the walk).
   */
  private async file(link: TransferLink, index: number, item: Planned, before: number): Promise<void> {
    let client = link.sftp()
    let from = 0
    for (;;) {
      const handle = await client.open(item.remote, 'r').catch((error: unknown) => {
        throw sftpFailure(error, { action: 'read', path: item.remote })
      })
      const lanes = await FileLanes.open(link, item.remote, 'r', item.size, { sftp: client.sftp, handle })
      const reader = new PipelinedReader(
        lanes.lanes,
        item.size,
        () => this.saved + FILES_WINDOW - before,
        (offset, data) => this.download.send(index, offset, data),
        from
      )
      this.reader = reader
      this.haltMoving = (error) => reader.stop(error)
      try {
        await reader.finished
        // Not waited for: every byte is in, and on a far link a round trip per file adds up.
        void lanes.close().catch(() => undefined)
        return
      } catch (error) {
        if (this.stopping || !this.resumable(error)) {
          await lanes.close().catch(() => undefined)
          if (this.stopping) throw this.stopReason()
          throw sftpFailure(error, { action: 'read', path: item.remote })
        }
        lanes.end()
        from = reader.delivered
        await this.backOnline(link, client)
        client = link.sftp()
        await this.unchanged(client, item)
      } finally {
        this.reader = undefined
        this.haltMoving = undefined
      }
    }
  }

  /** The file must be as the walk saw it, or the bytes already handed on may not belong with the rest. */
  private async unchanged(client: SftpClient, item: Planned): Promise<void> {
    const now = await client.stat(item.remote).catch(() => undefined)
    if (now?.size !== item.size || now.mtime !== item.modifiedAt) {
      throw new AppError(
        'io',
        `“${item.remote}” changed on the instance while the connection was down, so the download cannot continue from where it stopped. Download it again.`
      )
    }
  }

  /** Waits for the window: to be ready, or (`more`) to save more. */
  private ready(more = false): Promise<void> {
    if (this.stopping) return Promise.reject(this.stopReason())
    if (!more && this.started) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.wake = () => {
        this.wake = undefined
        if (this.stopping) reject(this.stopReason())
        else resolve()
      }
    })
  }
}

/** S_IFMT: the bits of a mode that say what kind of file it is. */
const FILE_TYPE_BITS = 0o170000

interface Walk {
  sftp: SftpClient
  options: DownloadOptions
  planned: Planned[]
  /** Links to folders left out. */
  links: number
  names: NameReport
  /** Folders listed so far (the deadline's message counts them). */
  folders: number
  /** WALK_TIMEOUT_MS from the walk's start. */
  deadline: Deadline
  /** Entries listed and not yet gone through, and the bytes of their names (MAX_PENDING_NAME_BYTES). */
  pending: number
  pendingBytes: number
}

/** What one listed entry costs the walk while it waits: its name, and about as much again for its attributes. */
const pendingCost = (filename: string): number => filename.length + 64

function tooMany(): AppError {
  return new AppError(
    'not-allowed',
    `That is more than ${MAX_DOWNLOAD_ITEMS} files and folders. Download a smaller folder, or pack it first (e.g. tar) in the terminal.`
  )
}

function walkTooLong(folders: number): AppError {
  return new AppError(
    'io',
    `The instance took more than ${WALK_TIMEOUT_MS / 60_000} minutes to list the folders to download (${folders.toLocaleString('en-US')} ${folders === 1 ? 'folder' : 'folders'} so far). Nothing was downloaded. Try a smaller folder, or check the instance.`
  )
}

/**
 * `remote` and, for a folder, everything in it, as `path` (checked local names, `/`-separated). `listed`: what the folder's listing
 * said of it (sftp-server lists with lstat), which spares one round trip per entry (on a far
 * link, most of a many-file download's time); without a file type in it, it is asked for.
 */
async function visit(walk: Walk, remote: string, path: string, listed?: Stats): Promise<void> {
  const { sftp, planned, deadline } = walk
  if (planned.length >= MAX_DOWNLOAD_ITEMS) throw tooMany()
  const typed = listed !== undefined && typeof listed.mode === 'number' && (listed.mode & FILE_TYPE_BITS) !== 0
  let stats = typed
    ? listed
    : await deadline.within(
        sftp.lstat(remote).catch((error: unknown) => {
          throw sftpFailure(error, { action: 'read', path: remote })
        })
      )
  if (stats.isSymbolicLink()) {
    const target = await deadline.within(sftp.stat(remote).catch(() => undefined))
    if (!target || target.isDirectory()) {
      walk.links++
      return
    }
    stats = target
  }
  if (stats.isFile()) {
    planned.push({ path, kind: 'file', size: stats.size, remote, modifiedAt: stats.mtime })
    return
  }
  if (!stats.isDirectory()) return
  planned.push({ path, kind: 'folder', size: 0, remote, modifiedAt: stats.mtime })
  const entries = await listFolder(sftp, remote, walk.options.clock, { within: deadline })
  walk.folders++
  const bytes = entries.reduce((sum, entry) => sum + pendingCost(entry.filename), 0)
  walk.pending += entries.length
  walk.pendingBytes += bytes
  // Each entry waiting is a file or folder to come (or a link or a name left out): more than the
  // download may hold is refused now, before the walk holds them all.
  if (planned.length + walk.pending > MAX_DOWNLOAD_ITEMS) throw tooMany()
  if (walk.pendingBytes > MAX_PENDING_NAME_BYTES) {
    throw new AppError(
      'not-allowed',
      `The folders to download hold names too long to go through at once (more than ${MAX_PENDING_NAME_BYTES / 1024 / 1024} MiB of them). Download a smaller folder, or pack it first (e.g. tar) in the terminal.`
    )
  }
  const locals = folderNames(
    entries.map((entry) => entry.filename),
    walk.names,
    walk.options.platform
  )
  for (const [index, entry] of entries.entries()) {
    walk.pending--
    walk.pendingBytes -= pendingCost(entry.filename)
    const local = locals[index]
    if (local !== undefined) await visit(walk, joinRemote(remote, entry.filename), `${path}/${local}`, entry.attrs)
  }
}
