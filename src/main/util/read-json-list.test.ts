import { mkdtempSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { readJsonList } from './read-json-list'

describe('a list read back from a JSON file of the app’s', () => {
  const folder = mkdtempSync(join(tmpdir(), 'cloudtray-json-list-'))
  afterAll(() => rm(folder, { recursive: true, force: true }))
  const Item = z.object({ id: z.string() })

  async function file(name: string, text: string): Promise<string> {
    await writeFile(join(folder, name), text)
    return join(folder, name)
  }

  it('keeps the good elements when one is bad, and hands back what sits beside the list', async () => {
    const path = await file('mixed.json', JSON.stringify({ items: [{ id: 'a' }, { id: 7 }, 'junk', { id: 'b', extra: 1 }], active: 'a' }))
    expect(await readJsonList(path, 'items', Item)).toEqual({
      items: [{ id: 'a' }, { id: 'b' }],
      object: { items: expect.any(Array), active: 'a' }
    })
  })

  it('is an empty start without a file or with one that is not JSON; no list there is no items', async () => {
    expect(await readJsonList(join(folder, 'absent.json'), 'items', Item)).toBeNull()
    expect(await readJsonList(await file('torn.json', '{"items": [{"id"'), 'items', Item)).toBeNull()
    expect(await readJsonList(await file('other.json', '{"items": 3}'), 'items', Item)).toEqual({ items: [], object: { items: 3 } })
  })
})
