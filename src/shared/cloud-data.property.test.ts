/**
 * What the cloud sends is untrusted too: whatever rows a list answer holds, and whatever families
 * the catalog lists, reading them never throws, gives no more than was sent, and one bad element
 * never sinks the rest.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ListInstancesResponseSchema, readInstanceRow } from './api'
import { CatalogResponseSchema, readCatalog } from './catalog'
import { makeInstance } from './testing/instance'

const goodRow = fc
  .nat({ max: 1_000 })
  .map((n) => makeInstance({ id: `notebook-${n}`, name: `box-${n}`, owner: 'u', sshAddress: '10.0.0.1' }))
/** A good row with one field replaced by anything at all. */
const spoiledRow = fc
  .tuple(goodRow, fc.constantFrom('instanceMetadata', 'instanceRuntimeInfo', 'instanceSpecInfo', 'instanceBillingInfo'), fc.jsonValue())
  .map(([row, key, junk]) => ({ ...row, [key]: junk }))
const anyRow = fc.oneof(goodRow, spoiledRow, fc.jsonValue({ maxDepth: 3 }))

describe('list rows, whatever the cloud sends', () => {
  it('each row is read or reported unreadable (with a short problem and a bounded id); never a throw', () => {
    fc.assert(
      fc.property(anyRow, (row) => {
        const read = readInstanceRow(row)
        if ('unreadable' in read) {
          expect(read.unreadable.problem.length).toBeLessThan(300)
          expect((read.unreadable.instanceId ?? '').length).toBeLessThanOrEqual(200)
        }
      })
    )
  })

  it('a bad row never sinks the good ones', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            goodRow.map((row) => ({ row, good: true })),
            anyRow.map((row) => ({ row, good: false }))
          ),
          { maxLength: 30 }
        ),
        (rows) => {
          const parsed = ListInstancesResponseSchema.safeParse({
            instances: rows.map((r) => r.row),
            pager: { currentPage: 1, pageSize: 30, totalEntries: rows.length }
          })
          expect(parsed.success).toBe(true)
          if (!parsed.success) return
          const { instances, unreadable } = parsed.data
          expect(instances.length + unreadable.length).toBe(rows.length)
          // Every known-good row is among those read.
          expect(instances.length).toBeGreaterThanOrEqual(rows.filter((r) => r.good).length)
        }
      )
    )
  })
})

const typeInfo = fc.oneof(
  fc.record({
    instanceTypeId: fc.string({ minLength: 1, maxLength: 20 }),
    gpuNum: fc.oneof(fc.nat({ max: 16 }), fc.jsonValue()),
    stockStatus: fc.oneof(fc.constantFrom('InStock', 'OutOfStock', 'instock'), fc.jsonValue()),
    price: fc.oneof(
      fc.array(
        fc.record({
          chargeMode: fc.oneof(fc.constantFrom('perHour', 'perDay', 'constructor', '__proto__'), fc.jsonValue()),
          price: fc.oneof(fc.double(), fc.jsonValue())
        }),
        { maxLength: 5 }
      ),
      fc.jsonValue()
    )
  }),
  fc.jsonValue({ maxDepth: 2 })
)
const region = fc.oneof(
  fc.record({
    regionId: fc.string({ maxLength: 10 }),
    regionName: fc.oneof(fc.string({ maxLength: 10 }), fc.jsonValue()),
    instanceTypeInfos: fc.oneof(fc.array(typeInfo, { maxLength: 5 }), fc.jsonValue())
  }),
  fc.jsonValue({ maxDepth: 2 })
)
const family = fc.oneof(
  fc.record({
    gpuName: fc.oneof(fc.string({ maxLength: 12 }), fc.jsonValue()),
    isSpotInstance: fc.oneof(fc.boolean(), fc.jsonValue()),
    regionInfos: fc.oneof(fc.array(region, { maxLength: 4 }), fc.jsonValue())
  }),
  fc.jsonValue({ maxDepth: 3 })
)

describe('the catalog, whatever the feed sends', () => {
  it('never throws; offers only what was listed, each with an id, a region and prices that are amounts', () => {
    fc.assert(
      fc.property(fc.array(family, { maxLength: 6 }), (families) => {
        const catalog = readCatalog(families)
        let types = 0
        for (const f of families) {
          const regions = (f as { regionInfos?: unknown } | null)?.regionInfos
          if (Array.isArray(regions))
            for (const r of regions) {
              const infos = (r as { instanceTypeInfos?: unknown } | null)?.instanceTypeInfos
              if (Array.isArray(infos)) types += infos.length
            }
        }
        expect(catalog.offers.length).toBeLessThanOrEqual(types)
        for (const offer of catalog.offers) {
          expect(offer.instanceTypeId.trim()).not.toBe('')
          expect(offer.regionId.trim()).not.toBe('')
          for (const [mode, price] of Object.entries(offer.prices)) {
            expect(['perHour', 'tidePerHour', 'perDay', 'perWeek', 'perMonth']).toContain(mode)
            expect(Number.isFinite(price) && price >= 0).toBe(true)
          }
        }
        // Through the answer's schema too: a list is read, anything else is refused, never thrown.
        expect(() => CatalogResponseSchema.safeParse({ instanceInfos: families })).not.toThrow()
      })
    )
  })

  it('one bad family never sinks the good ones', () => {
    const good = {
      gpuName: 'H100',
      regionInfos: [
        {
          regionId: 'r1',
          regionName: 'one',
          instanceTypeInfos: [{ instanceTypeId: 'gpu-h100-1x', price: [{ chargeMode: 'perHour', price: 2 }] }]
        }
      ]
    }
    fc.assert(
      fc.property(fc.array(family, { maxLength: 5 }), fc.array(family, { maxLength: 5 }), (before, after) => {
        const catalog = readCatalog([...before, good, ...after])
        expect(catalog.offers.some((offer) => offer.instanceTypeId === 'gpu-h100-1x' && offer.prices.perHour === 2)).toBe(true)
      })
    )
  })
})
