/**
 * The instance-type catalog: what the real service's launch form offers
 * (POST /resource/user/instance/list, hpcai-api-facts.md 2.9), read once here for main and the
 * renderer. The feed is undocumented, so it is read tolerantly: every field is optional, an
 * element that cannot be read is skipped (and counted) without sinking the rest, unknown
 * fields are ignored, and a price that is missing or `null` is unknown, never free.
 *
 * The feed nests family → region → type; the app works with the flat list of offers (one per
 * type and region) and asks it for prices by type, region and charge mode (`priceOf`).
 */
import { z } from 'zod'
import { isChargeMode, type ChargeMode } from './api'

export type Stock = 'in-stock' | 'out-of-stock' | 'unknown'

/** One instance type in one region, as the launch form shows it. */
export interface CatalogOffer {
  instanceTypeId: string
  /** The GPU family, e.g. `H100-SXM-80GB` or `B200-SXM-180GB-SPOT`; empty for CPU-only types. */
  gpuName: string
  /** GPUs per instance; null when the feed does not say. */
  gpuNum: number | null
  spot: boolean
  regionId: string
  /** The region as the feed names it (e.g. `us-west-1`); the region id when it gives no name. */
  regionName: string
  stock: Stock
  /** Unit price per charge mode the feed lists with a price; a mode absent here has no known price. */
  prices: Partial<Record<ChargeMode, number>>
}

export interface InstanceCatalog {
  offers: CatalogOffer[]
  /** Elements of the feed that could not be read (no type id, not an object, …). */
  skipped: number
}

export interface CatalogRegion {
  regionId: string
  regionName: string
}

const text = z.string().catch('')
const PriceEntrySchema = z.object({ chargeMode: z.unknown().optional(), price: z.unknown().optional() })
const TypeSchema = z.object({
  instanceTypeId: z.string().trim().min(1),
  gpuNum: z.number().int().nonnegative().nullable().optional().catch(null),
  stockStatus: z.unknown().optional(),
  price: z.array(z.unknown()).nullable().optional().catch(null)
})
const RegionSchema = z.object({
  regionId: z.string().trim().min(1),
  regionName: text.optional(),
  instanceTypeInfos: z.array(z.unknown()).nullable().optional().catch(null)
})
const FamilySchema = z.object({
  gpuName: text.optional(),
  isSpotInstance: z.boolean().optional().catch(undefined),
  regionInfos: z.array(z.unknown()).nullable().optional().catch(null)
})

/**
 * The answer's shape at the top: `instanceInfos` must be a list (or null: nothing offered);
 * anything else is not the catalog, and the client says so.
 */
export const CatalogResponseSchema = z
  .object({ instanceInfos: z.array(z.unknown()).nullable() })
  .transform((answer): InstanceCatalog => readCatalog(answer.instanceInfos ?? []))

/** The real feed: `InStock` / `OutOfStock`, compared without regard to case; anything else is unknown. */
export function stockOf(value: unknown): Stock {
  if (typeof value !== 'string') return 'unknown'
  const normal = value.trim().toLowerCase()
  return normal === 'instock' ? 'in-stock' : normal === 'outofstock' ? 'out-of-stock' : 'unknown'
}

/** A spot family: the flag when the feed sends it, else a `SPOT` part in the GPU name (as the real client reads it). */
export function isSpotFamily(gpuName: string, flag: boolean | undefined): boolean {
  return flag ?? /(^|-)SPOT(-|$)/i.test(gpuName)
}

function pricesOf(entries: readonly unknown[] | null | undefined): Partial<Record<ChargeMode, number>> {
  const prices: Partial<Record<ChargeMode, number>> = {}
  for (const raw of entries ?? []) {
    const entry = PriceEntrySchema.safeParse(raw)
    if (!entry.success || !isChargeMode(entry.data.chargeMode)) continue
    const price = entry.data.price
    // Missing, null, negative or not a number: unknown. Never 0 by default.
    if (typeof price === 'number' && Number.isFinite(price) && price >= 0 && !(entry.data.chargeMode in prices)) {
      prices[entry.data.chargeMode] = price
    }
  }
  return prices
}

export function readCatalog(families: readonly unknown[]): InstanceCatalog {
  const offers: CatalogOffer[] = []
  let skipped = 0
  for (const rawFamily of families) {
    const family = FamilySchema.safeParse(rawFamily)
    if (!family.success) {
      skipped++
      continue
    }
    const gpuName = (family.data.gpuName ?? '').trim()
    const spot = isSpotFamily(gpuName, family.data.isSpotInstance)
    for (const rawRegion of family.data.regionInfos ?? []) {
      const region = RegionSchema.safeParse(rawRegion)
      if (!region.success) {
        skipped++
        continue
      }
      const regionId = region.data.regionId.trim()
      const regionName = region.data.regionName?.trim() || regionId
      for (const rawType of region.data.instanceTypeInfos ?? []) {
        const type = TypeSchema.safeParse(rawType)
        if (!type.success) {
          skipped++
          continue
        }
        offers.push({
          instanceTypeId: type.data.instanceTypeId.trim(),
          gpuName,
          gpuNum: type.data.gpuNum ?? null,
          spot,
          regionId,
          regionName,
          stock: stockOf(type.data.stockStatus),
          prices: pricesOf(type.data.price)
        })
      }
    }
  }
  return { offers, skipped }
}

/** A catalog type as the picker and the review name it: "8 × H100-SXM-80GB", or "CPU only". */
export function typeLabel(offer: Pick<CatalogOffer, 'gpuName' | 'gpuNum'>): string {
  if (!offer.gpuName) return 'CPU only'
  return `${offer.gpuNum ?? '?'} × ${offer.gpuName}`
}

/** The catalog's regions, each once, in the order the feed first names them. */
export function catalogRegions(catalog: InstanceCatalog): CatalogRegion[] {
  const seen = new Map<string, CatalogRegion>()
  for (const offer of catalog.offers)
    if (!seen.has(offer.regionId)) seen.set(offer.regionId, { regionId: offer.regionId, regionName: offer.regionName })
  return [...seen.values()]
}

/**
 * The unit price of a type in a charge mode, in a region when given (else the first region
 * that prices it); undefined when the catalog does not know it. The one place prices are
 * looked up: the create form, its review step and the cost guard ask here.
 */
export function priceOf(
  catalog: InstanceCatalog | null | undefined,
  instanceTypeId: string,
  chargeMode: string,
  regionId?: string
): number | undefined {
  if (!catalog || !isChargeMode(chargeMode)) return undefined
  for (const offer of catalog.offers) {
    if (offer.instanceTypeId !== instanceTypeId || (regionId !== undefined && offer.regionId !== regionId)) continue
    const price = offer.prices[chargeMode]
    if (price !== undefined) return price
  }
  return undefined
}

/** The offer of a type in a region, when the catalog lists it. */
export function offerOf(catalog: InstanceCatalog | null | undefined, instanceTypeId: string, regionId: string): CatalogOffer | undefined {
  return catalog?.offers.find((offer) => offer.instanceTypeId === instanceTypeId && offer.regionId === regionId)
}

export interface GpuGroup {
  /** The family's GPU name; empty for CPU-only types. */
  gpuName: string
  spot: boolean
  offers: CatalogOffer[]
}

/** A region's offers grouped by GPU family, in feed order: what the type picker lists. */
export function offersByGpu(catalog: InstanceCatalog | null | undefined, regionId: string): GpuGroup[] {
  const groups = new Map<string, GpuGroup>()
  for (const offer of catalog?.offers ?? []) {
    if (offer.regionId !== regionId) continue
    const key = `${offer.gpuName}\u0000${offer.spot}`
    let group = groups.get(key)
    if (!group) {
      group = { gpuName: offer.gpuName, spot: offer.spot, offers: [] }
      groups.set(key, group)
    }
    // A type the feed lists twice in one region is offered once (the first listing).
    if (!group.offers.some((known) => known.instanceTypeId === offer.instanceTypeId)) group.offers.push(offer)
  }
  return [...groups.values()]
}
