/**
 * One upload: folders are made, then each file's bytes (sent by the window in order, see
 * contract-files.ts) stream into a temporary name beside the final one through a pipelined
 * writer, and the file is renamed to its name once every byte is confirmed. A cancelled or
 * failed upload removes the temporary file it was writing; files completed before stay.
 */
import { FILES_WINDOW, type TransferItem } from '../../../shared/contract-files'
import { AppError } from '../../app-error'
import { checkRelative, joinRemote, nameOf, parentOf, temporaryName } from './remote-path'
import { PipelinedWriter, type SftpClient } from './sftp-client'
import { isConnectionLoss, sftpFailure } from './sftp-errors'
import { Transfer, type TransferOptions } from './transfer'

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

  protected async run(sftp: () => SftpClient): Promise<void> {
    for (const [index, item] of this.upload.items.entries()) {
      const path = joinRemote(this.upload.folder, ...this.targets[index]!)
      this.progress({ current: item.path })
      if (item.kind === 'folder') await makeFolders(sftp(), path)
      else await this.file(sftp, index, item, path)
      this.itemDone()
    }
  }

  private async file(sftp: () => SftpClient, index: number, item: TransferItem, path: string): Promise<void> {
    const client = sftp()
    await makeFolders(client, parentOf(path))
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
    const writer = new PipelinedWriter(
      client.sftp,
      handle,
      (written) => this.wrote(this.completedBytes + written),
      // The window may be waiting for credit that will never come: stop waiting for its bytes.
      () => this.wake?.()
    )
    this.writer = writer
    let closed = false
    try {
      let offset = 0
      while (offset < item.size) {
        const chunk = await this.nextChunk()
        if (chunk.item !== index || chunk.offset !== offset || offset + chunk.data.length > item.size) {
          throw new AppError('internal', `The window sent the bytes of “${item.path}” out of order. Try the upload again.`)
        }
        writer.push(chunk.data)
        offset += chunk.data.length
        if (writer.failed) break
      }
      await writer.finish()
      closed = true
      await client.close(handle)
      if (this.upload.replace) await client.replace(temporary, path)
      else await client.rename(temporary, path)
      this.completedBytes += item.size
    } catch (error) {
      const cause = writer.failed ?? error
      const explained =
        cause instanceof AppError || this.stopping
          ? cause
          : sftpFailure(cause, {
              action: 'write',
              path,
              ...(isConnectionLoss(cause) ? {} : { freeBytes: await client.freeBytes(parentOf(path)) }),
              remainingBytes: item.size - writer.written
            })
      if (!closed) await client.close(handle).catch(() => undefined)
      await client.unlink(temporary).catch(() => undefined)
      throw explained
    }
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

/** Makes `path` and any missing parents; an existing folder is fine, an existing file is not. */
async function makeFolders(sftp: SftpClient, path: string): Promise<void> {
  const existing = await sftp.exists(path)
  if (existing?.isDirectory()) return
  if (existing)
    throw new AppError('not-allowed', `“${path}” exists on the instance and is not a folder. Rename it, or upload somewhere else.`)
  await makeFolders(sftp, parentOf(path))
  await sftp.mkdir(path).catch(async (error: unknown) => {
    // Made meanwhile (another upload into the same folder) is fine too.
    if ((await sftp.exists(path))?.isDirectory()) return
    throw sftpFailure(error, { action: 'create', path })
  })
}
