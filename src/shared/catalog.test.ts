import { describe, expect, it } from 'vitest'
import { CatalogResponseSchema, catalogRegions, offersByGpu, priceOf, readCatalog, stockOf } from './catalog'

/** The real feed's shape (hpcai-api-facts.md 2.9), with the odd entries it is known to carry. */
const FEED = {
  instanceInfos: [
    {
      gpuName: 'B200-SXM-180GB-SPOT',
      isSpotInstance: true,
      extra: { ignored: true },
      regionInfos: [
        {
          regionName: 'us-west-1',
          regionId: 'r-us',
          instanceTypeInfos: [
            {
              instanceTypeId: 'b200-spot',
              gpuNum: 8,
              stockStatus: 'InStock',
              price: [
                { chargeMode: 'perHour', price: 11.92 },
                { chargeMode: 'perWeek', price: 2002.56 },
                { chargeMode: 'perDay' },
                { chargeMode: 'perMonth', price: null },
                { chargeMode: 'perDecade', price: 1 }
              ]
            }
          ]
        }
      ]
    },
    {
      gpuName: 'B200-SXM-180GB',
      regionInfos: [
        {
          regionName: 'us-west-1',
          regionId: 'r-us',
          instanceTypeInfos: [
            { instanceTypeId: 'b200', gpuNum: 8, stockStatus: 'OutOfStock', price: [{ chargeMode: 'perHour', price: 24.4 }] },
            { gpuNum: 8, stockStatus: 'InStock' },
            'not an object'
          ]
        },
        { regionId: 'r-eu', instanceTypeInfos: [{ instanceTypeId: 'b200', stockStatus: 'Reserved', price: null }] },
        { regionName: 'no id' }
      ]
    },
    {
      gpuName: '',
      regionInfos: [
        {
          regionName: 'us-west-1',
          regionId: 'r-us',
          instanceTypeInfos: [{ instanceTypeId: 'cpu', gpuNum: 0, stockStatus: 'instock', price: [{ chargeMode: 'perHour', price: 0.24 }] }]
        }
      ]
    },
    {
      gpuName: 'H200-SXM-141GB-SPOT',
      regionInfos: [{ regionName: 'us-west-1', regionId: 'r-us', instanceTypeInfos: [{ instanceTypeId: 'h200-spot' }] }]
    },
    null
  ]
}

describe('the catalog feed, read tolerantly', () => {
  const catalog = CatalogResponseSchema.parse(FEED)

  it('keeps every readable offer and counts what it skipped', () => {
    expect(catalog.offers.map((o) => `${o.instanceTypeId}@${o.regionId}`)).toEqual([
      'b200-spot@r-us',
      'b200@r-us',
      'b200@r-eu',
      'cpu@r-us',
      'h200-spot@r-us'
    ])
    // A type without an id, a type that is a string, a region without an id, a null family.
    expect(catalog.skipped).toBe(4)
  })

  it('a missing or null price is unknown, never free; unknown charge modes are left out', () => {
    const spot = catalog.offers[0]!
    expect(spot.prices).toEqual({ perHour: 11.92, perWeek: 2002.56 })
    expect(priceOf(catalog, 'b200-spot', 'perDay')).toBeUndefined()
    expect(priceOf(catalog, 'b200-spot', 'perMonth')).toBeUndefined()
    expect(priceOf(catalog, 'b200', 'perHour', 'r-eu')).toBeUndefined()
    expect(priceOf(catalog, 'b200', 'perHour')).toBe(24.4)
    expect(priceOf(catalog, 'b200-spot', 'perHour', 'r-us')).toBe(11.92)
    expect(priceOf(null, 'b200', 'perHour')).toBeUndefined()
  })

  it('reads stock, spot (flag or -SPOT name), GPU count and region names', () => {
    expect(catalog.offers.map((o) => o.stock)).toEqual(['in-stock', 'out-of-stock', 'unknown', 'in-stock', 'unknown'])
    expect(catalog.offers.map((o) => o.spot)).toEqual([true, false, false, false, true])
    expect(catalog.offers[2]).toMatchObject({ regionName: 'r-eu', gpuNum: null })
    expect(catalogRegions(catalog)).toEqual([
      { regionId: 'r-us', regionName: 'us-west-1' },
      { regionId: 'r-eu', regionName: 'r-eu' }
    ])
    expect([stockOf('InStock'), stockOf(' OUTOFSTOCK '), stockOf(3)]).toEqual(['in-stock', 'out-of-stock', 'unknown'])
  })

  it("groups a region's offers by GPU family for the picker", () => {
    const groups = offersByGpu(catalog, 'r-us')
    expect(groups.map((g) => [g.gpuName, g.spot, g.offers.map((o) => o.instanceTypeId)])).toEqual([
      ['B200-SXM-180GB-SPOT', true, ['b200-spot']],
      ['B200-SXM-180GB', false, ['b200']],
      ['', false, ['cpu']],
      ['H200-SXM-141GB-SPOT', true, ['h200-spot']]
    ])
  })

  it('an answer without a list of families is not the catalog; null is an empty one', () => {
    expect(CatalogResponseSchema.safeParse({ message: 'hi' }).success).toBe(false)
    expect(CatalogResponseSchema.parse({ instanceInfos: null })).toEqual({ offers: [], skipped: 0 })
    expect(readCatalog([{ regionInfos: 'no' }])).toEqual({ offers: [], skipped: 0 })
  })
})
