/**
 * The files panels: SFTP sessions per window (sftp/files-session.ts) over the instances' shared
 * connections, and their uploads and downloads (sftp/upload.ts, sftp/download.ts). Everything a
 * window owns is its own: another window's session or transfer id is refused, and a window that
 * goes away has its transfers cancelled and its sessions closed. Paths from a window are checked
 * (remote-path.ts) and only ever handed to SFTP.
 */
import { randomUUID } from 'node:crypto'
import type { Clock, TimerHandle } from '../../../shared/clock'
import type { RemoteEntry, TransferItem, TransferProgress } from '../../../shared/contract-files'
import { AppError } from '../../app-error'
import type { ClientId, EventSink } from '../../core-types'
import type { SshLinks } from '../links/links'
import { Download } from './download'
import { DiskSink } from './disk-sink'
import { FilesSession } from './files-session'
import { plainBytes } from '../data-path/plain-bytes'
import { checkAbsolute, type Checked } from './remote-path'
import { Upload } from './upload'
import { lostDuringTransfer, type Transfer } from './transfer'
import type { TransferLink } from './lanes'

/**
 * How long a transfer cut by a dropped connection waits for the link to come back before it
 * fails: the link's own backoff (1, 2, 4, 8, 16, 30 s …) reaches a minute and a half by then.
 */
export const RESUME_WITHIN_MS = 2 * 60_000

export interface FilesManagerOptions {
  links: SshLinks
  clock: Clock
  emit: EventSink
  /**
   * Told the number of uploads and downloads under way each time it changes (a transfer begins,
   * ends, or is dropped with its panel or at Quit): the computer stays awake while any runs
   * (power/keep-awake.ts).
   */
  transfersChanged?: ((count: number) => void) | undefined
}

interface Owned {
  transfer: Transfer
  clientId: ClientId
  session: FilesSession
}

export class FilesManager {
  private readonly sessions = new Map<string, FilesSession>()
  private readonly transfers = new Map<string, Owned>()
  /** The count transfersChanged was last told. */
  private toldCount = 0

  constructor(private readonly options: FilesManagerOptions) {}

  /** Uploads and downloads under way (a restart to update waits for them). */
  transferCount(): number {
    return this.transfers.size
  }

  open(instanceId: string, clientId: ClientId): { sessionId: string } {
    const sessionId = `f-${randomUUID()}`
    const session = new FilesSession({
      sessionId,
      instanceId,
      clientId,
      clock: this.options.clock,
      report: (status) => this.options.emit('files.status', status, clientId),
      lost: (lost) => {
        // Bytes on their way wait for the link's reconnect and resume (transfer.ts); the rest fail.
        for (const owned of this.transfers.values()) if (owned.session === lost) owned.transfer.connectionLost()
      }
    })
    session.lease = this.options.links.acquire(instanceId, session)
    this.sessions.set(sessionId, session)
    return { sessionId }
  }

  close(sessionId: string, clientId: ClientId): void {
    const session = this.session(sessionId, clientId)
    for (const [transferId, owned] of this.transfers) {
      if (owned.session !== session) continue
      owned.transfer.cancel()
      this.untrack(transferId)
    }
    session.close()
    this.sessions.delete(sessionId)
  }

  list(sessionId: string, clientId: ClientId, path: string): Promise<{ path: string; entries: RemoteEntry[]; note?: string }> {
    return this.session(sessionId, clientId).list(absolute(path, 'path'))
  }

  mkdir(sessionId: string, clientId: ClientId, path: string): Promise<void> {
    return this.session(sessionId, clientId).mkdir(absolute(path, 'path'))
  }

  rename(sessionId: string, clientId: ClientId, from: string, to: string): Promise<void> {
    return this.session(sessionId, clientId).rename(absolute(from, 'from'), absolute(to, 'to'))
  }

  async remove(sessionId: string, clientId: ClientId, paths: readonly string[]): Promise<void> {
    const session = this.session(sessionId, clientId)
    for (const path of paths) await session.remove(notRoot(absolute(path, 'paths')))
  }

  upload(sessionId: string, clientId: ClientId, folder: string, items: readonly TransferItem[], replace: boolean): { transferId: string } {
    const session = this.session(sessionId, clientId)
    // Refused at once (in words) while the panel is not connected.
    session.sftp()
    const transferId = `x-${randomUUID()}`
    const upload = new Upload({
      transferId,
      sessionId,
      clock: this.options.clock,
      report: (progress) => this.report(transferId, clientId, progress),
      folder: absolute(folder, 'folder'),
      items,
      replace,
      written: (bytes) => this.options.emit('files.written', { transferId, bytes }, clientId)
    })
    this.track(transferId, { transfer: upload, clientId, session })
    void upload.start(this.linkOf(session))
    return { transferId }
  }

  chunk(transferId: string, clientId: ClientId, item: number, offset: number, data: Uint8Array): void {
    const owned = this.transfers.get(transferId)
    // A chunk of a transfer that just ended (cancelled, failed) is simply dropped: it is one-way.
    if (!owned || owned.clientId !== clientId || !(owned.transfer instanceof Upload)) return
    owned.transfer.chunk({ item, offset, data })
  }

  /**
   * A download main writes itself, into `folder` (Electron: picked in the OS's dialog, in main),
   * instead of sending the bytes to the window: the same walk and flow control, with a
   * DiskSink as the receiving end.
   */
  async downloadTo(
    sessionId: string,
    clientId: ClientId,
    paths: readonly string[],
    folder: string
  ): Promise<{ transferId: string; items: TransferItem[]; folder: string }> {
    const session = this.session(sessionId, clientId)
    const sftp = session.sftp()
    const transferId = `x-${randomUUID()}`
    // Made once the walk has named every item; the reader's callbacks reach it through this.
    const receiving: { sink?: DiskSink } = {}
    const download = await Download.plan(
      {
        transferId,
        sessionId,
        clock: this.options.clock,
        report: (progress) => {
          if (progress.state === 'failed' || progress.state === 'cancelled') void receiving.sink?.abandon()
          this.report(transferId, clientId, progress)
        },
        send: (item, offset, data) => receiving.sink?.write(item, offset, data)
      },
      sftp,
      paths.map((path) => notRoot(absolute(path, 'paths')))
    )
    const sink = new DiskSink(
      folder,
      download.items,
      (bytes) => download.savedUpTo(bytes),
      (error) => download.fail(error)
    )
    await sink.prepare()
    receiving.sink = sink
    this.track(transferId, { transfer: download, clientId, session })
    // Nothing moves until the window says it is following (files.saved 0), so it sees every progress report.
    void download.start(this.linkOf(session))
    return { transferId, items: download.items, folder }
  }

  async download(sessionId: string, clientId: ClientId, paths: readonly string[]): Promise<{ transferId: string; items: TransferItem[] }> {
    const session = this.session(sessionId, clientId)
    const sftp = session.sftp()
    const transferId = `x-${randomUUID()}`
    const download = await Download.plan(
      {
        transferId,
        sessionId,
        clock: this.options.clock,
        report: (progress) => this.report(transferId, clientId, progress),
        send: (item, offset, data) => this.options.emit('files.data', { transferId, item, offset, data: plainBytes(data) }, clientId)
      },
      sftp,
      paths.map((path) => notRoot(absolute(path, 'paths')))
    )
    this.track(transferId, { transfer: download, clientId, session })
    void download.start(this.linkOf(session))
    return { transferId, items: download.items }
  }

  saved(transferId: string, clientId: ClientId, bytes: number): void {
    const owned = this.transfers.get(transferId)
    if (!owned || owned.clientId !== clientId || !(owned.transfer instanceof Download)) return
    owned.transfer.savedUpTo(bytes)
  }

  cancel(transferId: string, clientId: ClientId): void {
    const owned = this.transfers.get(transferId)
    if (!owned || owned.clientId !== clientId) throw new AppError('not-allowed', 'That transfer has already ended.')
    owned.transfer.cancel()
  }

  clientGone(clientId: ClientId): void {
    for (const [sessionId, session] of [...this.sessions]) if (session.clientId === clientId) this.close(sessionId, clientId)
  }

  dispose(): void {
    for (const owned of this.transfers.values()) owned.transfer.cancel()
    this.transfers.clear()
    this.counted()
    for (const session of this.sessions.values()) session.close()
    this.sessions.clear()
  }

  /** A transfer's view of its session (lanes.ts): lanes, and waiting out a drop for at most RESUME_WITHIN_MS. */
  private linkOf(session: FilesSession): TransferLink {
    const clock = this.options.clock
    return {
      sftp: () => session.sftp(),
      roundTripMs: () => session.roundTripMs,
      openChannels: (count) => session.openChannels(count),
      reconnected: async (dead) => {
        let timer: TimerHandle | undefined
        const giveUp = new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, RESUME_WITHIN_MS)))
        try {
          if (!(await session.whenConnected(dead, giveUp))) throw lostDuringTransfer()
        } finally {
          clock.clearTimeout(timer)
        }
      }
    }
  }

  private session(sessionId: string, clientId: ClientId): FilesSession {
    const session = this.sessions.get(sessionId)
    if (!session || session.clientId !== clientId)
      throw new AppError('not-allowed', 'That files panel was closed. Open the files panel again.')
    return session
  }

  private report(transferId: string, clientId: ClientId, progress: TransferProgress): void {
    this.options.emit('files.transfer', progress, clientId)
    if (progress.state !== 'running') this.untrack(transferId)
  }

  private track(transferId: string, owned: Owned): void {
    this.transfers.set(transferId, owned)
    this.counted()
  }

  private untrack(transferId: string): void {
    if (this.transfers.delete(transferId)) this.counted()
  }

  /** Tells transfersChanged the count when it differs from what it was last told. */
  private counted(): void {
    const count = this.transfers.size
    if (count === this.toldCount) return
    this.toldCount = count
    this.options.transfersChanged?.(count)
  }
}

function absolute(path: string, field: string): string {
  return valueOf(checkAbsolute(path), path, field)
}

function notRoot(path: string): string {
  if (path === '/') throw new AppError('not-allowed', 'The whole disk (/) cannot be moved or deleted from here.')
  return path
}

function valueOf<T>(checked: Checked<T>, raw: string, field: string): T {
  if (checked.ok) return checked.value
  throw new AppError('bad-input', `The path “${raw}” ${checked.problem}.`, { field })
}
