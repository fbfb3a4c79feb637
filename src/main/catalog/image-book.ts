/**
 * The images the user launched or named, per profile (`<dataDir>/images.json`): the real API
 * has no image list, so the create form offers these, each under a label the user chose. Pure
 * functions over the book, plus the small store that reads it once and writes it atomically,
 * one write after another, so stop() can wait for the last.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { MAX_TEXT_LENGTH } from '../../shared/create-request'
import { writeFileAtomic } from '../../shared/node/atomic-write'

/** Enough for anyone's working set; the oldest unused go first. */
export const MAX_IMAGES_PER_PROFILE = 30
export const MAX_LABEL_LENGTH = 80

const EntrySchema = z.object({
  imageId: z.string().min(1).max(MAX_TEXT_LENGTH),
  label: z.string().max(MAX_LABEL_LENGTH),
  lastUsedAt: z.number().optional()
})
export type ImageEntry = z.infer<typeof EntrySchema>
/** Profile id → its images, most recent first. */
export type ImageBook = Record<string, ImageEntry[]>

/** One bad entry (a hand-edited file) is dropped, not the whole book. */
const BookSchema = z.record(
  z.string(),
  z.array(z.unknown()).transform((entries) =>
    entries.flatMap((entry) => {
      const parsed = EntrySchema.safeParse(entry)
      return parsed.success ? [parsed.data] : []
    })
  )
)

function put(list: readonly ImageEntry[], entry: ImageEntry): ImageEntry[] {
  return [entry, ...list.filter((known) => known.imageId !== entry.imageId)].slice(0, MAX_IMAGES_PER_PROFILE)
}

/** A launch with `imageId`: first in the list, keeping the label the user gave it. */
export function imageUsed(book: ImageBook, profileId: string, imageId: string, at: number): ImageBook {
  const list = book[profileId] ?? []
  const known = list.find((entry) => entry.imageId === imageId)
  return { ...book, [profileId]: put(list, { imageId, label: known?.label ?? '', lastUsedAt: at }) }
}

/** The user names an image (adding it when new); an empty label shows as the id. */
export function imageNamed(book: ImageBook, profileId: string, imageId: string, label: string): ImageBook {
  const list = book[profileId] ?? []
  const known = list.find((entry) => entry.imageId === imageId)
  const entry: ImageEntry = {
    imageId,
    label: label.trim().slice(0, MAX_LABEL_LENGTH),
    ...(known?.lastUsedAt !== undefined ? { lastUsedAt: known.lastUsedAt } : {})
  }
  return { ...book, [profileId]: known ? list.map((e) => (e.imageId === imageId ? entry : e)) : put(list, entry) }
}

export function imageForgotten(book: ImageBook, profileId: string, imageId: string): ImageBook {
  return { ...book, [profileId]: (book[profileId] ?? []).filter((entry) => entry.imageId !== imageId) }
}

export class ImageBookStore {
  private book: ImageBook = {}
  private lastWrite: Promise<void> = Promise.resolve()
  private readonly path: string

  constructor(dataDir: string) {
    this.path = join(dataDir, 'images.json')
  }

  get(profileId: string): readonly ImageEntry[] {
    return this.book[profileId] ?? []
  }

  /** Reads the file; a missing or damaged one is an empty book (the images are a convenience). */
  async load(): Promise<void> {
    try {
      const parsed = BookSchema.safeParse(JSON.parse(await readFile(this.path, 'utf8')))
      this.book = parsed.success ? parsed.data : {}
    } catch {
      this.book = {}
    }
  }

  async change(next: (book: ImageBook) => ImageBook): Promise<void> {
    this.book = next(this.book)
    const snapshot = JSON.stringify(this.book, null, 2) + '\n'
    this.lastWrite = this.lastWrite.then(() => writeFileAtomic(this.path, snapshot)).catch(() => undefined)
    await this.lastWrite
  }

  /** Resolves once the last write has finished. */
  flushed(): Promise<void> {
    return this.lastWrite
  }
}
