/**
 * One upload: folders are made, then each file's bytes (sent by the window in order, see
 * contract-files.ts) stream into a temporary name beside the final one through a pipelined
 * writer, and the file is renamed to its name once every byte is confirmed. A cancelled or
 * failed upload removes the temporary file it was writing; files completed before stay.
 */
import { FILES_WINDOW, type TransferItem } from '../../../shared/contract-files'
import { AppError } from '../../app-error'
import { checkRelative, joinRemote, nameOf, parentOf, temporaryName } from './remote-path'
import { FileLanes, type TransferLink } from './lanes'
import { PipelinedWriter, type SftpClient } from './sftp-client'
import { isConnectionLoss, sftpFailure } from './sftp-errors'
import { ConnectionDropped, lostDuringTransfer, Transfer, type TransferOptions } from './transfer'

interface Chunk {
  item: number
  offset: number
  data: Uint8Array
}

export interface UploadOptions extends TransferOptions {
  folder: string
  items: readonly TransferItem[]
  replace: boolean
  /** Bytes written on the instance so far, over the whole upload (the window's credit). */
  written: (bytes: number) => void
}

export class Upload extends Transfer {
  private readonly queue: Chunk[] = []
  private queuedBytes = 0
  private wake: (() => void) | undefined
  private completedBytes = 0
  private writer: PipelinedWriter | undefined
  /** Folders on the instance this upload has seen or made (makeFolders). */
  private readonly folders = new Set<string>()
  private readonly targets: string[][]

  constructor(private readonly upload: UploadOptions) {
    super(upload, 'upload', upload.items)
    this.targets = upload.items.map((item) => {
      const segments = checkRelative(item.path)
      if (!segments.ok)
        throw new AppError('bad-input', `The name “${item.path}” cannot be used on the instance: it ${segments.problem}.`, {
          field: 'items'
        })
      return segments.value
    })
  }

  /** Bytes of one item, in the order the window sends them. */
  chunk(chunk: Chunk): void {
    if (this.stopping) return
    this.queuedBytes += chunk.data.length
    if (this.queuedBytes > 2 * FILES_WINDOW) {
      this.fail(new AppError('internal', 'The window sent more than it was allowed to. Try the upload again.'))
      return
    }
    this.queue.push(chunk)
    this.wake?.()
  }

  protected override stopped(): void {
    this.wake?.()
  }

  protected async run(link: TransferLink): Promise<void> {
    for (const [index, item] of this.upload.items.entries()) {
      const path = joinRemote(this.upload.folder, ...this.targets[index]!)
      this.progress({ current: item.path })
      if (item.kind === 'folder') await makeFolders(link.sftp(), path, this.folders)
      else await this.file(link, index, item, path)
      this.itemDone()
    }
  }

  private async file(link: TransferLink, index: number, item: TransferItem, path: string): Promise<void> {
    let client = link.sftp()
    await makeFolders(client, parentOf(path), this.folders)
    if (!this.upload.replace && (await client.exists(path))) {
      throw new AppError(
        'not-allowed',
        `“${path}” already exists on the instance. Upload again and choose to replace it, or rename one of them.`
      )
    }
    const temporary = joinRemote(parentOf(path), temporaryName(nameOf(path)))
    const handle = await client.open(temporary, 'wx').catch((error: unknown) => {
      throw sftpFailure(error, { action: 'write', path: parentOf(path) })
    })
    let lanes = await FileLanes.open(link, temporary, 'r+', item.size, { sftp: client.sftp, handle })
    /** Bytes of this file confirmed by writers on connections that went since. */
    let confirmedBefore = 0
    let writer = this.writerOn(lanes, () => confirmedBefore)
    let closed = false
    /** The connection under `lanes` went: a request on it would never be answered. */
    let dead = false
    try {
      let offset = 0
      for (;;) {
        try {
          while (offset < item.size) {
            const chunk = await this.nextChunk()
            if (chunk.item !== index || chunk.offset !== offset || offset + chunk.data.length > item.size) {
              throw new AppError('internal', `The window sent the bytes of “${item.path}” out of order. Try the upload again.`)
            }
            // Queued even if the connection just went: it is then written again on the next one.
            writer.push(chunk.data, offset)
            offset += chunk.data.length
            if (writer.failed) throw writer.failed
          }
          await writer.finish()
          break
        } catch (error) {
          if (error instanceof AppError || !this.resumable(writer.failed ?? error)) throw error
          // The connection went: the temporary file stays on the instance. On the next
          // connection it is opened again, checked, and whatever was not confirmed is written again.
          const unconfirmed = writer.unconfirmed()
          confirmedBefore += writer.written
          lanes.end()
          dead = true
          await this.backOnline(link, client)
          client = link.sftp()
          lanes = await this.reopen(link, client, temporary, item, unconfirmed[0]?.position ?? offset)
          dead = false
          writer = this.writerOn(lanes, () => confirmedBefore)
          for (const piece of unconfirmed) writer.push(piece.data, piece.position)
        }
      }
      closed = true
      await lanes.close()
      if (this.upload.replace) await client.replace(temporary, path)
      else await client.rename(temporary, path)
      this.completedBytes += item.size
    } catch (error) {
      // The step's own words first (a part file that changed, the link that gave up), else the writer's.
      const failure = error instanceof AppError ? error : (writer.failed ?? error)
      const cause = failure instanceof ConnectionDropped ? lostDuringTransfer() : failure
      const explained =
        cause instanceof AppError || this.stopping
          ? cause
          : sftpFailure(cause, {
              action: 'write',
              path,
              ...(isConnectionLoss(cause) ? {} : { freeBytes: await client.freeBytes(parentOf(path)) }),
              remainingBytes: item.size - confirmedBefore - writer.written
            })
      if (!closed && !dead) await lanes.close().catch(() => undefined)
      // After a drop, the temporary file goes on the next connection if there is one already.
      const live = dead ? liveSftp(link, client) : client
      await live?.unlink(temporary).catch(() => undefined)
      throw explained
    } finally {
      this.writer = undefined
      this.haltMoving = undefined
    }
  }

  /** A writer over `lanes` whose confirmations count on top of what this file had confirmed before. */
  private writerOn(lanes: FileLanes, before: () => number): PipelinedWriter {
    const writer = new PipelinedWriter(
      lanes.lanes,
      (written) => this.wrote(this.completedBytes + before() + written),
      // The window may be waiting for credit that will never come: stop waiting for its bytes.
      () => this.wake?.()
    )
    this.writer = writer
    this.haltMoving = (error) => writer.interrupt(error)
    return writer
  }

  /**
   * The temporary file again, on the new connection: it must still be a file holding at least
   * every byte before `confirmedUpTo` (all of them were confirmed); else someone changed it and
   * the upload cannot continue from it.
   */
  private async reopen(
    link: TransferLink,
    client: SftpClient,
    temporary: string,
    item: TransferItem,
    confirmedUpTo: number
  ): Promise<FileLanes> {
    const held = await client.exists(temporary)
    if (!held?.isFile() || held.size < confirmedUpTo) {
      throw new AppError(
        'io',
        `The partly uploaded “${item.path}” changed on the instance while the connection was down, so the upload cannot continue from it. Upload it again.`
      )
    }
    const handle = await client.open(temporary, 'r+')
    return FileLanes.open(link, temporary, 'r+', item.size, { sftp: client.sftp, handle })
  }

  private nextChunk(): Promise<Chunk> {
    return new Promise((resolve, reject) => {
      const take = (): void => {
        if (this.stopping) return reject(this.stopReason())
        if (this.writer?.failed) return reject(this.writer.failed)
        const chunk = this.queue.shift()
        if (!chunk) {
          this.wake = take
          return
        }
        this.wake = undefined
        this.queuedBytes -= chunk.data.length
        resolve(chunk)
      }
      take()
    })
  }

  private wrote(bytes: number): void {
    this.progress({ bytesDone: bytes })
    this.upload.written(bytes)
  }
}

/** The session's SFTP if it is connected again (not `dead`'s connection), else undefined. */
function liveSftp(link: TransferLink, dead: SftpClient): SftpClient | undefined {
  try {
    const now = link.sftp()
    return now === dead ? undefined : now
  } catch {
    return undefined
  }
}

/**
 * Makes `path` and any missing parents; an existing folder is fine, an existing file is not.
 * `known`: folders this upload has already seen or made, not asked about again (a round trip
 * each on a far link, for every file of a folder of many).
 */
async function makeFolders(sftp: SftpClient, path: string, known: Set<string>): Promise<void> {
  if (known.has(path)) return
  const existing = await sftp.exists(path)
  if (existing?.isDirectory()) return void known.add(path)
  if (existing)
    throw new AppError('not-allowed', `“${path}” exists on the instance and is not a folder. Rename it, or upload somewhere else.`)
  await makeFolders(sftp, parentOf(path), known)
  await sftp.mkdir(path).catch(async (error: unknown) => {
    // Made meanwhile (another upload into the same folder) is fine too.
    if ((await sftp.exists(path))?.isDirectory()) return
    throw sftpFailure(error, { action: 'create', path })
  })
  known.add(path)
}
