/**
 * Stock, read from the catalog for what a watch or a template waits for (pure): the first of its
 * regions, in the user's order, where the type is in stock and priced for the billing mode (the
 * cloud refuses a mode without a price), and how that reads.
 */
import type { InstanceCatalog } from '../../shared/catalog'
import { offerOf, typeLabel } from '../../shared/catalog'
import type { StockTarget } from '../../shared/contract-launch'
import { chargeModeLabel, formatRate } from '../../shared/cost-words'
import { hourlyRate } from '../../shared/money'

export interface Found {
  regionId: string
  regionName: string
  price: number
  hourlyRate: number
}

/** The first of the target's regions with stock and a price; undefined when none has any. */
export function firstInStock(catalog: InstanceCatalog | null | undefined, target: StockTarget): Found | undefined {
  for (const regionId of target.regions) {
    const offer = offerOf(catalog, target.instanceTypeId, regionId)
    const price = offer?.prices[target.chargeMode]
    if (!offer || offer.stock !== 'in-stock' || price === undefined) continue
    return { regionId, regionName: offer.regionName, price, hourlyRate: hourlyRate({ chargeMode: target.chargeMode, price }) }
  }
  return undefined
}

/** A region by the catalog's name for it (its id when the catalog does not list it). */
export function regionName(catalog: InstanceCatalog | null | undefined, regionId: string): string {
  return catalog?.offers.find((offer) => offer.regionId === regionId)?.regionName ?? regionId
}

/** The type by its GPU ("1 × H100-SXM-80GB"), or by its id when the catalog does not list it. */
export function typeWords(catalog: InstanceCatalog | null | undefined, instanceTypeId: string): string {
  const offer = catalog?.offers.find((entry) => entry.instanceTypeId === instanceTypeId)
  return offer ? typeLabel(offer) : instanceTypeId
}

/** "1 × H100-SXM-80GB, per hour, in us-west-1 or ap-southeast-1": what a watch waits for. */
export function targetWords(catalog: InstanceCatalog | null | undefined, target: StockTarget): string {
  const names = target.regions.map((regionId) => regionName(catalog, regionId))
  const where = names.length <= 2 ? names.join(' or ') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
  return `${typeWords(catalog, target.instanceTypeId)}, ${chargeModeLabel(target.chargeMode).toLowerCase()}, in ${where}`
}

/** "1 × H100-SXM-80GB in us-west-1 at $2.49/h": an offer as a notice or a note says it. */
export function offerWords(
  catalog: InstanceCatalog | null | undefined,
  instanceTypeId: string,
  regionId: string,
  chargeMode: string
): string {
  const offer = offerOf(catalog, instanceTypeId, regionId)
  const price = offer?.prices[chargeMode as keyof typeof offer.prices]
  const rate = price === undefined ? 'price unknown' : `at ${formatRate(hourlyRate({ chargeMode, price }))}`
  return `${typeWords(catalog, instanceTypeId)} in ${regionName(catalog, regionId)} ${rate}`
}
