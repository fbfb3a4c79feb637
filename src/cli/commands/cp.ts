/**
 * `cloud-tray cp [-r] SRC DST`: copies between this computer and an instance over the app's
 * files sessions (SFTP on the shared SSH link; contract-files.ts), with `NAME:path` on one side
 * (relative to the instance user's home folder, `~` allowed; a local name holding a colon before
 * any slash is written `./name`). Like cp: into an existing folder under the source's name, else
 * to the name given; folders only with -r; existing files are replaced. Uploads land under a
 * temporary name on the instance and downloads under one here, renamed when complete, so a
 * failed or cancelled copy leaves nothing half-written under the final name. Names from the
 * instance are checked before anything is written here.
 */
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats
} from 'node:fs'
import { basename, dirname, join, posix, resolve, sep } from 'node:path'
import type { Events } from '../../shared/contract'
import { FILES_CHUNK, FILES_WINDOW, type TransferItem, type TransferProgress } from '../../shared/contract-files'
import { formatBytes } from '../../shared/format-bytes'
import type { AppClient } from '../app-client'
import { call, instanceSnapshot, requireSignedIn, withApp, type CliContext } from '../app'
import { CliError, EXIT } from '../exit-codes'
import { resolveInstance } from '../instance-names'
import { shown, type Io } from '../output'
import { ProgressBar } from '../progress'
import { openFilesSession, type FilesSession } from './files-session'

export interface CpOptions {
  recursive?: boolean
}

export type Place = { remote: { instance: string; path: string } } | { local: string }

/** `NAME:path` (a colon before any slash), else a local path; on Windows `C:\…` stays local. */
export function parsePlace(text: string, platform: NodeJS.Platform = process.platform): Place {
  const colon = text.indexOf(':')
  const slash = text.search(/[/\\]/)
  const drive = platform === 'win32' && /^[A-Za-z]:([/\\]|$)/.test(text)
  if (colon > 0 && (slash === -1 || colon < slash) && !drive)
    return { remote: { instance: text.slice(0, colon), path: text.slice(colon + 1) } }
  return { local: text }
}

/** An instance path as SFTP takes it: absolute, from the home folder for a relative one or `~`. */
export function remotePathOf(home: string, path: string): string {
  if (path.includes('\0')) throw new CliError('A path on the instance cannot hold a NUL character.', EXIT.usage)
  const fromHome = path === '' || path === '~' ? home : path.startsWith('~/') ? posix.join(home, path.slice(2)) : path
  const absolute = posix.resolve(home, fromHome)
  return absolute.length > 1 ? absolute.replace(/\/+$/, '') : absolute
}

/** A name the instance sent, checked before it becomes a path here: one plain segment. */
export function localName(name: string, platform: NodeJS.Platform = process.platform): string {
  const bad =
    name === '' ||
    name === '.' ||
    name === '..' ||
    /[/\0]/.test(name) ||
    (platform === 'win32' &&
      (/[<>:"\\|?*\u0000-\u001f]/.test(name) || /[. ]$/.test(name) || /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(name)))
  if (bad) throw new CliError(`The instance sent a name that cannot be used here (“${shown(name)}”); nothing more was written.`)
  return name
}

export async function cpCommand(context: CliContext, source: string, target: string, options: CpOptions): Promise<number> {
  const from = parsePlace(source)
  const to = parsePlace(target)
  if ('remote' in from === 'remote' in to) {
    throw new CliError(
      'remote' in from
        ? 'cp copies between this computer and one instance: one side is NAME:path, the other a path here.'
        : 'One side of cp is on an instance: write it NAME:path (a local name with a colon is written ./name).',
      EXIT.usage
    )
  }
  const remote = 'remote' in from ? from.remote : (to as { remote: { instance: string; path: string } }).remote
  return withApp(context, async (app) => {
    await requireSignedIn(app)
    const instance = resolveInstance((await instanceSnapshot(app)).instances, remote.instance)
    const session = await openFilesSession(app, context.io, instance.instanceMetadata.instanceId, instance.instanceSpecInfo.name)
    try {
      const transfer = new TransferRun(app, context.io)
      if ('remote' in from)
        await download(transfer, session, remotePathOf(session.home, from.remote.path), (to as { local: string }).local, options)
      else await upload(transfer, session, (from as { local: string }).local, remote.path, options)
      return EXIT.ok
    } finally {
      await app.invoke('files.close', { sessionId: session.sessionId }).catch(() => undefined)
    }
  })
}

/** One transfer's events (which may come before its id is known), its progress bar, and Ctrl-C. */
class TransferRun {
  transferId: string | undefined
  written = 0
  private early: (() => void)[] = []
  private last: TransferProgress | undefined
  private wake: (() => void) | undefined
  private interrupted = false
  private lost = false
  readonly bar: ProgressBar
  private readonly offs: (() => void)[] = []
  private onData: ((payload: Events['files.data']) => void) | undefined

  constructor(
    readonly app: AppClient,
    readonly io: Io
  ) {
    // Drawn only on a terminal: piped or redirected, cp prints nothing while it works.
    this.bar = new ProgressBar(io.err, io.err.isTTY === true && io.out.isTTY === true)
    const mine = (transferId: string, act: () => void): void => {
      if (this.transferId === undefined) this.early.push(() => transferId === this.transferId && act())
      else if (transferId === this.transferId) act()
    }
    this.offs.push(
      app.on('files.transfer', (progress) => mine(progress.transferId, () => this.progressed(progress))),
      app.on('files.written', (payload) => mine(payload.transferId, () => this.credit(payload.bytes))),
      app.on('files.data', (payload) => mine(payload.transferId, () => this.onData?.(payload)))
    )
    const onSigint = (): void => {
      this.interrupted = true
      if (this.transferId) void app.invoke('files.cancel', { transferId: this.transferId })
      this.wake?.()
    }
    process.on('SIGINT', onSigint)
    this.offs.push(() => process.off('SIGINT', onSigint))
    void app.closed.then(() => {
      this.lost = true
      this.wake?.()
    })
  }

  started(transferId: string, onData?: (payload: Events['files.data']) => void): void {
    this.transferId = transferId
    this.onData = onData
    for (const replay of this.early.splice(0)) replay()
  }

  get ended(): boolean {
    return this.last !== undefined && this.last.state !== 'running'
  }

  /** Until `check` holds, the transfer ends, Ctrl-C, or the app goes. */
  async until(check: () => boolean): Promise<void> {
    while (!check() && !this.ended && !this.interrupted && !this.lost) await new Promise<void>((resolve) => (this.wake = resolve))
  }

  /** The outcome, once the app reports it (a Ctrl-C's cancel too); throws CliError for a failure or a cancel. */
  async outcome(): Promise<TransferProgress> {
    while (!this.ended && !this.lost) await new Promise<void>((resolve) => (this.wake = resolve))
    for (const off of this.offs.splice(0)) off()
    this.bar.clear()
    if (this.lost && !this.ended) throw new CliError('Cloud Tray closed the connection during the copy (did it quit?).')
    const last = this.last!
    if (this.interrupted || last.state === 'cancelled')
      throw new CliError('Cancelled; nothing was left under the final name.', EXIT.interrupted)
    if (last.state === 'failed') throw new CliError(shown(last.message ?? 'The copy failed.'))
    // Names the app would not write as the instance spelled them: said even when piped.
    if (last.note) this.io.err.write(`${shown(last.note)}\n`)
    if (this.io.err.isTTY) this.io.err.write(`Copied ${formatBytes(last.bytesDone)} in ${(this.bar.elapsedMs() / 1000).toFixed(1)} s.\n`)
    return last
  }

  private progressed(progress: TransferProgress): void {
    this.last = progress
    this.bar.update(progress, progress.state !== 'running')
    this.wake?.()
  }

  private credit(bytes: number): void {
    this.written = Math.max(this.written, bytes)
    this.wake?.()
  }
}

interface LocalItem extends TransferItem {
  local: string
}

function walkLocal(path: string, name: string, recursive: boolean, io: Io): LocalItem[] {
  let stats: Stats
  try {
    stats = statSync(path)
  } catch (error) {
    throw new CliError(`${shown(path)} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`, EXIT.notFound)
  }
  if (stats.isFile()) return [{ path: name, kind: 'file', size: stats.size, local: path }]
  if (!stats.isDirectory()) throw new CliError(`${shown(path)} is neither a file nor a folder.`, EXIT.usage)
  if (!recursive) throw new CliError(`${shown(path)} is a folder: add -r to copy it with everything in it.`, EXIT.usage)
  const items: LocalItem[] = [{ path: name, kind: 'folder', size: 0, local: path }]
  const visit = (dir: string, prefix: string): void => {
    for (const child of readdirSync(dir).sort()) {
      const local = join(dir, child)
      const link = lstatSync(local)
      let stats: Stats
      try {
        stats = link.isSymbolicLink() ? statSync(local) : link
      } catch {
        io.err.write(`Left out ${shown(local)}: a link to nothing.\n`)
        continue
      }
      const rel = `${prefix}/${child}`
      if (stats.isFile()) items.push({ path: rel, kind: 'file', size: stats.size, local })
      else if (stats.isDirectory() && !link.isSymbolicLink()) {
        items.push({ path: rel, kind: 'folder', size: 0, local })
        visit(local, rel)
      } else io.err.write(`Left out ${shown(local)}: ${stats.isDirectory() ? 'a link to a folder' : 'not a file or folder'}.\n`)
    }
  }
  visit(path, name)
  return items
}

async function upload(run: TransferRun, session: FilesSession, localPath: string, remoteText: string, options: CpOptions): Promise<void> {
  const { app } = run
  const localName = basename(resolve(localPath))
  const target = remotePathOf(session.home, remoteText)
  let folder = target
  let name = localName
  if (!remoteText.endsWith('/') && target !== session.home && target !== '/') {
    const parent = posix.dirname(target)
    const listing = await app.invoke('files.list', { sessionId: session.sessionId, path: parent })
    if (!listing.ok) throw new CliError(`${shown(parent)} on the instance cannot be listed: ${shown(listing.error.message)}`, EXIT.notFound)
    const entry = listing.value.entries.find((each) => each.name === posix.basename(target))
    if (!(entry?.type === 'folder' || (entry?.type === 'link' && entry.target === 'folder'))) {
      folder = parent
      name = posix.basename(target)
    }
  }
  const items = walkLocal(localPath, name, options.recursive === true, run.io)
  const started = await app.invoke('files.upload', {
    sessionId: session.sessionId,
    folder,
    items: items.map(({ path, kind, size }) => ({ path, kind, size })),
    replace: true
  })
  if (!started.ok) throw new CliError(shown(started.error.message), started.error.kind === 'bad-input' ? EXIT.usage : EXIT.failure)
  const transferId = started.value.transferId
  run.started(transferId)
  let sent = 0
  sending: for (const [index, item] of items.entries()) {
    if (item.kind !== 'file') continue
    const fd = openSync(item.local, 'r')
    try {
      for (let offset = 0; offset < item.size;) {
        await run.until(() => sent - run.written < FILES_WINDOW)
        if (run.ended || sent - run.written >= FILES_WINDOW) break sending
        // A fresh buffer per chunk: it is handed to the socket, not copied.
        const buffer = Buffer.allocUnsafe(Math.min(FILES_CHUNK, item.size - offset))
        const length = readSync(fd, buffer, 0, buffer.length, offset)
        if (length === 0) {
          await app.invoke('files.cancel', { transferId })
          throw new CliError(`${shown(item.local)} got shorter while it was copied; the copy was cancelled.`)
        }
        app.notice('files.chunk', { transferId, item: index, offset, data: new Uint8Array(buffer.buffer, buffer.byteOffset, length) })
        offset += length
        sent += length
        await app.drained()
      }
    } finally {
      closeSync(fd)
    }
  }
  await run.outcome()
}

async function download(run: TransferRun, session: FilesSession, remotePath: string, localText: string, options: CpOptions): Promise<void> {
  const { app } = run
  const started = await app.invoke('files.download', { sessionId: session.sessionId, paths: [remotePath] })
  if (!started.ok) throw new CliError(shown(started.error.message), started.error.kind === 'bad-input' ? EXIT.usage : EXIT.notFound)
  const { transferId, items } = started.value
  if (items[0]?.kind === 'folder' && !options.recursive) {
    await call(app, 'files.cancel', { transferId })
    throw new CliError(`${shown(remotePath)} is a folder: add -r to copy it with everything in it.`, EXIT.usage)
  }
  // Into an existing folder under the instance's name, else to the name given.
  const into = (() => {
    try {
      return statSync(localText).isDirectory()
    } catch {
      return false
    }
  })()
  const root = resolve(into ? join(localText, localName(items[0]!.path.split('/')[0]!)) : localText)
  const topName = items[0]!.path.split('/')[0]!
  const paths = items.map((item) => {
    const segments = item.path.split('/')
    if (segments[0] !== topName) throw new CliError('The instance listed a file outside what was asked for; nothing was written.')
    const path = join(root, ...segments.slice(1).map((segment) => localName(segment)))
    if (path !== root && !path.startsWith(root + sep))
      throw new CliError('The instance sent a path outside the destination; nothing was written.')
    return path
  })
  const temporary = new Map<number, { fd: number; path: string; received: number }>()
  const cleanUp = (): void => {
    for (const file of temporary.values()) {
      try {
        closeSync(file.fd)
      } catch {
        // Already closed.
      }
      try {
        unlinkSync(file.path)
      } catch {
        // Already renamed or gone.
      }
    }
    temporary.clear()
  }
  let saved = 0
  let failure: Error | undefined
  const receive = ({ item, offset, data }: Events['files.data']): void => {
    if (failure) return
    try {
      const final = paths[item]
      const size = items[item]?.size
      if (final === undefined || size === undefined || offset + data.length > size)
        throw new CliError('The instance sent more than it listed; the copy was stopped.')
      let file = temporary.get(item)
      if (!file) {
        const path = join(dirname(final), `.${basename(final)}.cloudtray-${randomBytes(4).toString('hex')}.part`)
        file = { fd: openSync(path, 'wx'), path, received: 0 }
        temporary.set(item, file)
      }
      writeSync(file.fd, data, 0, data.length, offset)
      file.received += data.length
      if (file.received === size) {
        closeSync(file.fd)
        renameSync(file.path, final)
        temporary.delete(item)
      }
      saved += data.length
      app.notice('files.saved', { transferId, bytes: saved })
    } catch (error) {
      failure = error instanceof CliError ? error : new CliError(`Could not write here: ${(error as Error).message}`)
      void app.invoke('files.cancel', { transferId })
    }
  }
  try {
    for (const [index, item] of items.entries()) {
      if (item.kind === 'folder') mkdirSync(paths[index]!, { recursive: true })
      else if (item.size === 0) closeSync(openSync(paths[index]!, 'w'))
    }
    run.started(transferId, receive)
    // Ready: the instance's bytes may come.
    app.notice('files.saved', { transferId, bytes: 0 })
    await run.outcome()
    if (failure) throw failure
  } catch (error) {
    cleanUp()
    throw failure ?? error
  }
}
