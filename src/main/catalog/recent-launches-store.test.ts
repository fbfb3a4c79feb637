import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { RecentLaunchesStore } from './recent-launches-store'

const dirs: string[] = []
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'recent-'))
  dirs.push(dir)
  return dir
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const launch = (imageId: string, at: number) => ({ imageId, instanceTypeId: 'gpu-1', region: 'sg-1', at })

describe('RecentLaunchesStore', () => {
  it('keeps launches across a restart', async () => {
    const dir = tempDir()
    const first = new RecentLaunchesStore(dir)
    await first.load()
    expect(first.get()).toEqual([])
    await first.add(launch('img-a', 1))
    await first.add(launch('img-b', 2))
    const again = new RecentLaunchesStore(dir)
    await again.load()
    expect(again.get()).toEqual(first.get())
    expect(again.get().map((l) => l.imageId)).toEqual(expect.arrayContaining(['img-a', 'img-b']))
  })

  it('reads a damaged file as no launches, and drops entries of the wrong shape', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'recent-launches.json'), '{not json')
    const damaged = new RecentLaunchesStore(dir)
    await damaged.load()
    expect(damaged.get()).toEqual([])

    writeFileSync(join(dir, 'recent-launches.json'), JSON.stringify([launch('ok', 1), { imageId: 3 }, null]))
    const mixed = new RecentLaunchesStore(dir)
    await mixed.load()
    expect(mixed.get()).toEqual([launch('ok', 1)])
  })

  it('writes one after another, so the file ends with the last list', async () => {
    const dir = tempDir()
    const store = new RecentLaunchesStore(dir)
    await store.load()
    await Promise.all([store.add(launch('one', 1)), store.add(launch('two', 2)), store.add(launch('three', 3))])
    await store.flushed()
    expect(JSON.parse(readFileSync(join(dir, 'recent-launches.json'), 'utf8'))).toEqual(store.get())
  })
})
