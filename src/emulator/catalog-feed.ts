/**
 * POST /resource/user/instance/list: the real service's launch-form feed (hpcai-api-facts.md
 * 2.9), rendered from the emulator's catalog. Types are grouped by GPU family (`gpuName`), each
 * family lists every region with its types there: GPU count, stock (`InStock` / `OutOfStock`)
 * and one price entry per charge mode the catalog names — a mode it leaves out has no entry,
 * a `null` price is sent as `null`, as the real feed does.
 */
import { CHARGE_MODES } from '../shared/api'
import type { Catalog, CatalogInstanceType } from './catalog'

export interface FeedPrice {
  chargeMode: string
  price: number | null
}

export interface FeedInstanceType {
  instanceTypeId: string
  gpuNum: number
  stockStatus: 'InStock' | 'OutOfStock'
  price: FeedPrice[]
}

export interface FeedRegion {
  regionName: string
  regionId: string
  instanceTypeInfos: FeedInstanceType[]
}

export interface FeedFamily {
  gpuName: string
  isSpotInstance: boolean
  regionInfos: FeedRegion[]
}

export function catalogFeed(catalog: Catalog): { instanceInfos: FeedFamily[] } {
  const families = new Map<string, CatalogInstanceType[]>()
  for (const type of catalog.instanceTypes) {
    const key = `${type.gpuName}\u0000${type.spot}`
    families.set(key, [...(families.get(key) ?? []), type])
  }
  return {
    instanceInfos: [...families.values()].map((types) => ({
      gpuName: types[0]!.gpuName,
      isSpotInstance: types[0]!.spot,
      regionInfos: catalog.regions.map((region) => ({
        // The real feed names regions by their short name (its fixtures: "us-west-1").
        regionName: region.value,
        regionId: region.regionId,
        instanceTypeInfos: types.map((type) => ({
          instanceTypeId: type.instanceTypeId,
          gpuNum: type.gpu.amount,
          stockStatus: type.outOfStockIn.includes(region.regionId) ? 'OutOfStock' : 'InStock',
          price: CHARGE_MODES.filter((mode) => type.prices[mode] !== undefined).map((mode) => ({
            chargeMode: mode,
            price: type.prices[mode] ?? null
          }))
        }))
      }))
    }))
  }
}
