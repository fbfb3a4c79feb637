import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { readCatalog, type InstanceCatalog } from '../../shared/catalog'
import { ManualClock } from '../../shared/clock'
import { CatalogCache, MAX_AGE_MS } from './catalog-cache'

const FEED = [
  {
    gpuName: 'H100-SXM-80GB',
    regionInfos: [
      {
        regionId: 'r1',
        regionName: 'us-west-1',
        instanceTypeInfos: [
          {
            instanceTypeId: 'h100',
            gpuNum: 1,
            stockStatus: 'OutOfStock',
            price: [
              { chargeMode: 'perHour', price: 2.49 },
              { chargeMode: 'perDay', price: null }
            ]
          }
        ]
      }
    ]
  }
]

let dir: string | undefined
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = undefined
})

async function rig(fetch: () => Promise<InstanceCatalog>) {
  dir = await mkdtemp(join(tmpdir(), 'catalog-cache-'))
  const clock = new ManualClock(10_000)
  const changed: string[] = []
  const make = () =>
    new CatalogCache({
      dataDir: dir!,
      clock,
      fetch,
      toErrorInfo: (e) => ({ kind: 'network', message: String(e) }),
      changed: (id) => void changed.push(id)
    })
  const cache = make()
  await cache.load()
  return { cache, clock, changed, make }
}

describe('CatalogCache', () => {
  it('answers at once, reads in the background, and says when it is stale', async () => {
    let reads = 0
    const r = await rig(async () => {
      reads++
      return readCatalog(FEED)
    })
    expect(r.cache.get('hpc-ai')).toEqual({ catalog: null, fetchedAt: null, refreshing: false })
    expect(r.cache.stale('hpc-ai')).toBe(true)
    const reading = r.cache.refresh('hpc-ai')
    expect(r.cache.get('hpc-ai').refreshing).toBe(true)
    await Promise.all([reading, r.cache.refresh('hpc-ai')])
    expect(reads).toBe(1)
    expect(r.cache.get('hpc-ai')).toMatchObject({ fetchedAt: 10_000, refreshing: false })
    expect(r.cache.priceOf('hpc-ai', 'h100', 'perHour')).toBe(2.49)
    expect(r.cache.priceOf('hpc-ai', 'h100', 'perDay')).toBeUndefined()
    expect(r.cache.stale('hpc-ai')).toBe(false)
    r.clock.advance(MAX_AGE_MS)
    expect(r.cache.stale('hpc-ai')).toBe(true)
    expect(r.changed).toEqual(['hpc-ai', 'hpc-ai'])
  })

  it('survives a restart from its file, unknown prices still unknown; a failed read keeps the old catalog', async () => {
    let fail = false
    const r = await rig(async () => {
      if (fail) throw new Error('offline')
      return readCatalog(FEED)
    })
    await r.cache.flushed()
    await r.cache.refresh('hpc-ai')
    await r.cache.flushed()
    const restarted = r.make()
    await restarted.load()
    expect(restarted.get('hpc-ai').catalog?.offers).toEqual(readCatalog(FEED).offers)
    fail = true
    await restarted.refresh('hpc-ai')
    expect(restarted.get('hpc-ai')).toMatchObject({
      fetchedAt: 10_000,
      error: { kind: 'network' },
      catalog: { offers: [{ instanceTypeId: 'h100' }] }
    })
  })

  it('writes nothing once closed, though a read was still on its way (the app stopping after a sign-in)', async () => {
    let answer: (() => void) | undefined
    const r = await rig(() => new Promise((resolve) => (answer = () => resolve(readCatalog(FEED)))))
    const reading = r.cache.refresh('hpc-ai')
    await r.cache.close()
    answer!()
    await reading
    await r.cache.flushed()
    const restarted = r.make()
    await restarted.load()
    expect(restarted.get('hpc-ai').catalog).toBeNull()
  })
})
