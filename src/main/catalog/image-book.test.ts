import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ImageBookStore, MAX_IMAGES_PER_PROFILE, imageForgotten, imageNamed, imageUsed } from './image-book'

describe('image book', () => {
  it("keeps each profile's images, most recent first, with the labels the user gave", () => {
    let book = imageUsed({}, 'hpc-ai', 'img-a', 1)
    book = imageNamed(book, 'hpc-ai', 'img-b', '  My PyTorch  ')
    book = imageUsed(book, 'hpc-ai', 'img-b', 2)
    book = imageUsed(book, 'sandbox', 'img-a', 3)
    expect(book['hpc-ai']).toEqual([
      { imageId: 'img-b', label: 'My PyTorch', lastUsedAt: 2 },
      { imageId: 'img-a', label: '', lastUsedAt: 1 }
    ])
    book = imageNamed(book, 'hpc-ai', 'img-a', 'Old one')
    expect(book['hpc-ai']![1]).toEqual({ imageId: 'img-a', label: 'Old one', lastUsedAt: 1 })
    expect(imageForgotten(book, 'hpc-ai', 'img-b')['hpc-ai']!.map((e) => e.imageId)).toEqual(['img-a'])
    let full = {}
    for (let i = 0; i < MAX_IMAGES_PER_PROFILE + 5; i++) full = imageUsed(full, 'p', `img-${i}`, i)
    expect((full as Record<string, unknown[]>)['p']).toHaveLength(MAX_IMAGES_PER_PROFILE)
  })

  it('is kept in images.json; a damaged entry is dropped, a damaged file is an empty book', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'image-book-'))
    try {
      const store = new ImageBookStore(dir)
      await store.load()
      await store.change((book) => imageNamed(book, 'hpc-ai', 'img-x', 'Mine'))
      const again = new ImageBookStore(dir)
      await again.load()
      expect(again.get('hpc-ai')).toEqual([{ imageId: 'img-x', label: 'Mine' }])
      const text = JSON.parse(await readFile(join(dir, 'images.json'), 'utf8'))
      text['hpc-ai'].push({ imageId: 42 })
      await writeFile(join(dir, 'images.json'), JSON.stringify(text))
      await again.load()
      expect(again.get('hpc-ai')).toHaveLength(1)
      await writeFile(join(dir, 'images.json'), 'not json')
      await again.load()
      expect(again.get('hpc-ai')).toEqual([])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
