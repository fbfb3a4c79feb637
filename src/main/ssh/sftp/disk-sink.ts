/**
 * Where a download lands when main writes it (Electron: the folder the user picked in the OS's
 * own dialog, in main): every item is checked to stay inside that folder (the names come from
 * the instance: untrusted), a chosen file or folder that is already there gets a " (2)" name
 * instead of overwriting, each file is written to a temporary name and renamed when complete,
 * and the bytes written are reported for flow control (download.ts keeps at most FILES_WINDOW
 * ahead). A folder that cannot be written is said at once, in the user's words.
 */
import { constants } from 'node:fs'
import { access, mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve } from 'node:path'
import type { TransferItem } from '../../../shared/contract-files'
import { AppError } from '../../app-error'
import { describeDiskError } from '../../util/disk-problem'

/** A file being downloaded is written beside its name with this ending, and renamed once whole. */
export const PART = '.cloud-tray-part'

/** `path` (a/b/c from the instance) under `folder`, or null when it would leave it or is not a plain name. */
export function localPath(folder: string, path: string): string | null {
  const parts = path.split('/')
  if (
    parts.some(
      (part) =>
        part === '' || part === '.' || part === '..' || /[\0\\]/.test(part) || (process.platform === 'win32' && /[<>:"|?*]/.test(part))
    )
  )
    return null
  const full = resolve(folder, ...parts)
  const inside = relative(resolve(folder), full)
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? full : null
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false
  )
}

/** "name (2).ext" for the first free name beside `path`. */
async function freeName(path: string): Promise<string> {
  if (!(await exists(path))) return path
  const dot = path.lastIndexOf('.')
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'))
  const [stem, ext] = dot > slash + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, '']
  for (let n = 2; n < 1000; n++) {
    const candidate = `${stem} (${n})${ext}`
    if (!(await exists(candidate))) return candidate
  }
  throw new AppError('io', `Could not find a free name for ${path}.`)
}

export class DiskSink {
  private readonly targets: string[] = []
  private open: { item: number; handle: FileHandle; written: number } | undefined
  private total = 0
  private queue: Promise<void> = Promise.resolve()
  private failed = false

  constructor(
    private readonly folder: string,
    private readonly items: readonly TransferItem[],
    private readonly saved: (bytes: number) => void,
    private readonly fail: (error: AppError) => void
  ) {}

  /** Checks the folder, names every item inside it, makes the folders and the empty files. */
  async prepare(): Promise<void> {
    try {
      await access(this.folder, constants.W_OK)
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT'
      throw new AppError(
        'io',
        `Cloud Tray cannot write into ${this.folder}: ${missing ? 'the folder does not exist' : describeDiskError(error)}. Pick another folder.`
      )
    }
    const renamedTops = new Map<string, string>()
    for (const item of this.items) {
      const [top, ...rest] = item.path.split('/')
      const checked = localPath(this.folder, item.path)
      if (!checked || !top)
        throw new AppError(
          'not-allowed',
          `The instance named a file "${item.path}" that would land outside ${this.folder}; nothing was downloaded.`
        )
      if (!renamedTops.has(top)) renamedTops.set(top, await freeName(join(this.folder, top)))
      const target = join(renamedTops.get(top)!, ...rest)
      this.targets.push(target)
      try {
        if (item.kind === 'folder') await mkdir(target, { recursive: true })
        else if (item.size === 0) await (await open(target, 'wx')).close()
      } catch (error) {
        throw new AppError('io', `Could not create ${target}: ${describeDiskError(error)}. Nothing more was written.`)
      }
    }
  }

  /** Bytes of item `item` at `offset`, in order; written one after another. */
  write(item: number, offset: number, data: Uint8Array): void {
    const copy = Uint8Array.from(data)
    this.queue = this.queue.then(async () => {
      if (this.failed) return
      try {
        await this.writeNow(item, offset, copy)
      } catch (error) {
        this.failed = true
        await this.abandon()
        this.fail(
          new AppError(
            'io',
            `Could not write the download into ${this.folder}: ${describeDiskError(error)}. Nothing half-written was kept.`
          )
        )
      }
    })
  }

  /** The transfer stopped (cancelled, failed, lost): the half-written file goes. */
  async abandon(): Promise<void> {
    const open = this.open
    this.open = undefined
    if (!open) return
    await open.handle.close().catch(() => undefined)
    await rm(`${this.targets[open.item]}${PART}`, { force: true })
  }

  private async writeNow(item: number, offset: number, data: Uint8Array): Promise<void> {
    const target = this.targets[item]
    const size = this.items[item]?.size
    if (target === undefined || size === undefined) throw new Error(`no item ${item}`)
    if (this.open?.item !== item) {
      await this.abandon()
      this.open = { item, handle: await open(`${target}${PART}`, 'w'), written: 0 }
    }
    await this.open.handle.write(data, 0, data.length, offset)
    this.open.written += data.length
    this.total += data.length
    if (this.open.written >= size) {
      await this.open.handle.close()
      this.open = undefined
      await rename(`${target}${PART}`, target)
    }
    this.saved(this.total)
  }
}
