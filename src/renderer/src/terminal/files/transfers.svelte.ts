/**
 * The window's side of uploads and downloads (contract-files.ts). An upload reads the picked
 * File objects in FILES_CHUNK slices and sends them one way, never more than FILES_WINDOW ahead
 * of what main reports written. A download writes into the folder the user picked (File System
 * Access API): each file to `<name>.part` first, moved to its name once complete; a cancel or a
 * failure removes the `.part` file; names already in the folder get " (2)". Speed and time left
 * come from the bytes done over the last seconds (transfer-rate.ts).
 */
import { FILES_CHUNK, FILES_WINDOW, type TransferItem, type TransferProgress, type TransferState } from '../../../../shared/contract-files'
import { call, send } from '../../lib/bridge'
import { RateMeter } from './transfer-rate'
import { uniqueName } from './entries'
import { transferLabel } from './transfer-label'

export class TransferView {
  transferId = $state<string | null>(null)
  state = $state<TransferState | 'starting'>('starting')
  bytesDone = $state(0)
  itemsDone = $state(0)
  current = $state<string | undefined>(undefined)
  message = $state<string | undefined>(undefined)
  speed = $state<number | undefined>(undefined)
  remaining = $state<number | undefined>(undefined)
  private readonly meter = new RateMeter()
  private readonly started = performance.now()

  constructor(
    readonly direction: 'upload' | 'download',
    /** What moves: "notes.txt (4 KB)", "data and 2 more (1.2 GB)". */
    readonly what: string,
    readonly bytesTotal: number,
    readonly itemsTotal: number,
    /** A download's folder on this computer, as the user knows it. */
    readonly folder?: string
  ) {}

  /** Its name in the panel, following its state (transfer-label.ts). */
  get label(): string {
    return transferLabel(this.direction, this.what, this.state, this.folder)
  }

  get finished(): boolean {
    return this.state === 'done' || this.state === 'failed' || this.state === 'cancelled'
  }

  /** Bytes done so far (from main's progress, or this window's own count). */
  moved(bytes: number): void {
    if (bytes < this.bytesDone) return
    this.bytesDone = bytes
    this.meter.sample(performance.now() - this.started, bytes)
    this.speed = this.meter.speed()
    this.remaining = this.meter.remaining(this.bytesTotal)
  }

  progress(progress: TransferProgress): void {
    this.moved(progress.bytesDone)
    this.itemsDone = progress.itemsDone
    this.current = progress.current
    if (progress.state !== 'running') {
      this.state = progress.state
      this.message = progress.message
    } else if (this.state === 'starting') this.state = 'running'
  }

  fail(message: string): void {
    if (this.finished) return
    this.state = 'failed'
    this.message = message
  }
}

/** Sends an upload's bytes; `written` (from main) opens the window for more. */
export class UploadSender {
  private written = 0
  private wake: (() => void) | undefined

  constructor(
    private readonly view: TransferView,
    private readonly transferId: string,
    private readonly items: readonly TransferItem[],
    private readonly files: readonly (Blob | undefined)[]
  ) {}

  onWritten(bytes: number): void {
    this.written = Math.max(this.written, bytes)
    this.view.moved(bytes)
    this.wake?.()
  }

  /** Stops sending (the transfer ended: cancelled, failed, or the connection went). */
  stop(): void {
    this.wake?.()
  }

  async run(): Promise<void> {
    let sent = 0
    for (const [index, item] of this.items.entries()) {
      const file = this.files[index]
      if (item.kind !== 'file' || !file) continue
      for (let offset = 0; offset < item.size;) {
        while (sent - this.written >= FILES_WINDOW && !this.view.finished) await new Promise<void>((resolve) => (this.wake = resolve))
        if (this.view.finished) return
        const data = new Uint8Array(await file.slice(offset, offset + FILES_CHUNK).arrayBuffer())
        if (data.length === 0) {
          this.view.fail(`“${item.path}” changed while it was being sent (it got shorter). Try again.`)
          return
        }
        send('files.chunk', { transferId: this.transferId, item: index, offset, data })
        offset += data.length
        sent += data.length
      }
    }
  }
}

interface Receiving {
  handle: FileSystemFileHandle
  partName: string
  finalName: string
  folder: FileSystemDirectoryHandle
  writable: FileSystemWritableFileStream
  left: number
}

/** Writes a download into a folder the user picked, in the order main sends it. */
export class DownloadReceiver {
  private saved = 0
  private queue: Promise<void> = Promise.resolve()
  private readonly open = new Map<number, Receiving>()
  private readonly made = new Map<string, FileSystemDirectoryHandle>()
  /** Top-level names as they are saved (a taken one gets " (2)"). */
  private readonly renamed = new Map<string, string>()
  failed: string | undefined

  constructor(
    private readonly view: TransferView,
    private readonly transferId: string,
    private readonly items: readonly TransferItem[],
    private readonly root: FileSystemDirectoryHandle
  ) {}

  /** Picks free top-level names, makes the folders and empty files; then main may start. */
  async prepare(): Promise<void> {
    const taken = new Set<string>()
    for await (const name of this.root.keys()) taken.add(name)
    for (const item of this.items) {
      const top = item.path.split('/')[0]!
      if (this.renamed.has(top)) continue
      const free = uniqueName(top, taken)
      taken.add(free)
      this.renamed.set(top, free)
    }
    for (const item of this.items) {
      if (item.kind === 'folder') await this.folderAt(this.mapped(item.path))
      else if (item.size === 0) {
        const { folder, name } = await this.placeOf(item.path)
        await (await folder.getFileHandle(name, { create: true })).createWritable().then((w) => w.close())
      }
    }
    send('files.saved', { transferId: this.transferId, bytes: 0 })
  }

  /** Bytes of item `item` at `offset`: written in order, then reported saved. */
  push(item: number, offset: number, data: Uint8Array): void {
    this.queue = this.queue.then(() => this.write(item, offset, data)).catch((error: unknown) => this.fail(error))
  }

  /** Resolves once everything received so far is written (and completed files moved into place). */
  idle(): Promise<void> {
    return this.queue
  }

  /** The transfer ended early: whatever was half written goes. */
  async abort(): Promise<void> {
    await this.queue.catch(() => undefined)
    for (const receiving of this.open.values()) {
      await receiving.writable.abort().catch(() => undefined)
      await receiving.folder.removeEntry(receiving.partName).catch(() => undefined)
    }
    this.open.clear()
  }

  private async write(item: number, offset: number, data: Uint8Array): Promise<void> {
    if (this.failed) return
    let receiving = this.open.get(item)
    if (!receiving) {
      const { folder, name } = await this.placeOf(this.items[item]!.path)
      const partName = `${name}.part`
      const handle = await folder.getFileHandle(partName, { create: true })
      receiving = { handle, partName, finalName: name, folder, writable: await handle.createWritable(), left: this.items[item]!.size }
      this.open.set(item, receiving)
    }
    await receiving.writable.write({ type: 'write', position: offset, data: data as Uint8Array<ArrayBuffer> })
    receiving.left -= data.length
    if (receiving.left <= 0) {
      await receiving.writable.close()
      if (receiving.handle.move) await receiving.handle.move(receiving.finalName)
      else await this.copyInto(receiving)
      this.open.delete(item)
    }
    this.saved += data.length
    this.view.moved(this.saved)
    send('files.saved', { transferId: this.transferId, bytes: this.saved })
  }

  /** Without move(): the finished .part is copied to its name and removed. */
  private async copyInto(receiving: Receiving): Promise<void> {
    const file = await receiving.handle.getFile()
    const target = await (await receiving.folder.getFileHandle(receiving.finalName, { create: true })).createWritable()
    await file.stream().pipeTo(target)
    await receiving.folder.removeEntry(receiving.partName)
  }

  private fail(error: unknown): void {
    if (this.failed) return
    const reason = error instanceof Error ? error.message : String(error)
    this.failed = `Could not save the download on this computer: ${reason}. Nothing half-written was kept.`
    this.view.fail(this.failed)
    void call('files.cancel', { transferId: this.transferId })
    void this.abort()
  }

  /** The folder an item's path lives in (made on the way) and its own (possibly renamed) name. */
  private async placeOf(path: string): Promise<{ folder: FileSystemDirectoryHandle; name: string }> {
    const parts = this.mapped(path)
    const name = parts.pop()!
    return { folder: await this.folderAt(parts), name }
  }

  /** The folder at `parts` under the picked one, made where missing. */
  private async folderAt(parts: readonly string[]): Promise<FileSystemDirectoryHandle> {
    let folder = this.root
    for (let depth = 0; depth < parts.length; depth++) {
      const key = parts.slice(0, depth + 1).join('/')
      let next = this.made.get(key)
      if (!next) {
        next = await folder.getDirectoryHandle(parts[depth]!, { create: true })
        this.made.set(key, next)
      }
      folder = next
    }
    return folder
  }

  private mapped(path: string): string[] {
    const parts = path.split('/')
    parts[0] = this.renamed.get(parts[0]!) ?? parts[0]!
    return parts
  }
}
