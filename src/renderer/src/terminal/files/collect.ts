/**
 * What the user picked or dropped, as the items of an upload (contract-files.ts): files with
 * their paths inside the dropped or chosen folder, and every folder on the way (empty ones too,
 * when a drop shows them), parents before children. The File objects stay in the window.
 */
import type { TransferItem } from '../../../../shared/contract-files'

export interface PickedFile {
  name: string
  size: number
  /** `folder/sub/name` for files from a folder picker; empty for a plain pick. */
  webkitRelativePath?: string
}

export interface Collected<F> {
  items: TransferItem[]
  /** The file of each item (undefined for folders), index for index. */
  files: (F | undefined)[]
}

/** From an <input type=file> (multiple, or webkitdirectory). */
export function fromPicked<F extends PickedFile>(picked: readonly F[]): Collected<F> {
  return build(
    picked.map((file) => ({ path: file.webkitRelativePath || file.name, file })),
    []
  )
}

/** The bits of the File and Directory Entries API a drop offers (typed narrowly, so tests can fake them). */
export interface DroppedEntry {
  name: string
  isFile: boolean
  isDirectory: boolean
  file?(success: (file: File) => void, failure: (error: unknown) => void): void
  createReader?(): { readEntries(success: (entries: DroppedEntry[]) => void, failure: (error: unknown) => void): void }
}

/** From a drop: files, and whole folders walked (readEntries answers in batches until empty). */
export async function fromDropped(entries: readonly DroppedEntry[]): Promise<Collected<File>> {
  const files: { path: string; file: File }[] = []
  const folders: string[] = []
  const walk = async (entry: DroppedEntry, prefix: string): Promise<void> => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name
    if (entry.isFile && entry.file) {
      files.push({ path, file: await new Promise<File>((resolve, reject) => entry.file!(resolve, reject)) })
      return
    }
    if (!entry.isDirectory || !entry.createReader) return
    folders.push(path)
    const reader = entry.createReader()
    for (;;) {
      const batch = await new Promise<DroppedEntry[]>((resolve, reject) => reader.readEntries(resolve, reject))
      if (batch.length === 0) break
      for (const child of batch) await walk(child, path)
    }
  }
  for (const entry of entries) await walk(entry, '')
  return build(files, folders)
}

function build<F extends { size: number }>(files: { path: string; file: F }[], folders: string[]): Collected<F> {
  const folderSet = new Set(folders)
  for (const { path } of files) {
    const parts = path.split('/')
    for (let depth = 1; depth < parts.length; depth++) folderSet.add(parts.slice(0, depth).join('/'))
  }
  const items: TransferItem[] = []
  const out: (F | undefined)[] = []
  for (const folder of [...folderSet].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1))) {
    items.push({ path: folder, kind: 'folder', size: 0 })
    out.push(undefined)
  }
  for (const { path, file } of files) {
    items.push({ path, kind: 'file', size: file.size })
    out.push(file)
  }
  return { items, files: out }
}

/** The top-level names of an upload that already exist in the folder (the user is asked first). */
export function conflicts(items: readonly TransferItem[], existing: ReadonlySet<string>): string[] {
  return [...new Set(items.map((item) => item.path.split('/')[0]!))].filter((name) => existing.has(name))
}
