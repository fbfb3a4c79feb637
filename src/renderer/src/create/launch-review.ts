/**
 * What the review step shows before anything is created: what will be launched, in the words
 * of the form (type by GPU, region by name, image by its label), and what it costs: the price
 * per period × the periods for day, week and month plans; the price per hour for hourly ones;
 * spot's risk in one line. Prices come from the catalog (src/shared/catalog.ts's priceOf); a
 * price the catalog does not know is said to be unknown, never shown as free.
 */
import type { InstanceCatalog } from '../../../shared/catalog'
import { offerOf, priceOf } from '../../../shared/catalog'
import type { KnownImage } from '../../../shared/contract'
import { formatDollars, hourlyRate } from '../../../shared/money'
import { isHourly, type CreateDraft } from './create-form'
import { chargeModeLabel, chargeModeUnit, typeLabel } from '../lib/format'
import { sentLines, type ReviewLine } from './review-sent'

export interface LaunchReview {
  /** Label → value, in reading order: every field of the request. */
  lines: ReviewLine[]
  /** The cost in one sentence. */
  cost: string
  /** Unit price × periods when known (for tests and the sum's emphasis). */
  total?: number
  /** Dollars per hour of this launch (a plan spread over its hours), when its price is known: the balance check's rate. */
  hourlyRate?: number
  /** Spot's risk in one line, when the launch is a spot instance. */
  spotRisk?: string
}

export const SPOT_RISK =
  'Spot capacity: cheaper, but the provider can reclaim it whenever it needs the capacity, which stops the instance and what runs on it.'

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`
}

export function launchReview(draft: CreateDraft, catalog: InstanceCatalog | null, images: readonly KnownImage[]): LaunchReview {
  const typeId = draft.instanceTypeId.trim()
  const regionId = draft.region.trim()
  const offer = offerOf(catalog, typeId, regionId)
  const image = images.find((known) => known.imageId === draft.imageId.trim())
  const regionName = catalog?.offers.find((o) => o.regionId === regionId)?.regionName
  const price = priceOf(catalog, typeId, draft.chargeMode, regionId)
  const unit = chargeModeUnit(draft.chargeMode)
  const periods = isHourly(draft.chargeMode) ? 1 : (draft.duration ?? 1)
  // Spot is the type's (the catalog says); a type the catalog does not list keeps what was asked.
  const spot = offer ? offer.spot : draft.isSpotInstance

  const lines: ReviewLine[] = [
    { label: 'Name', value: draft.name.trim() },
    { label: 'Type', value: offer ? typeLabel(offer) : typeId },
    { label: 'Region', value: regionName ?? regionId },
    { label: 'Image', value: image && image.label !== image.imageId ? `${image.label} (${image.imageId})` : draft.imageId.trim() },
    {
      label: 'Billing',
      value: isHourly(draft.chargeMode)
        ? chargeModeLabel(draft.chargeMode)
        : `${chargeModeLabel(draft.chargeMode)}, ${plural(periods, unit)}`
    }
  ]
  if (spot) lines.push({ label: 'Spot', value: 'Yes: spot capacity, at the spot price' })
  for (const line of sentLines(draft)) lines.push(line)

  let cost: string
  let total: number | undefined
  if (price === undefined) {
    cost = `Price unknown: the catalog lists no ${chargeModeLabel(draft.chargeMode).toLowerCase()} price for this type here. The cloud bills its own rate.`
  } else if (isHourly(draft.chargeMode)) {
    cost = `${formatDollars(price)} per hour, billed while it runs, until you stop or delete it.`
  } else {
    total = price * periods
    cost = `${formatDollars(price)} per ${unit} × ${plural(periods, unit)} = ${formatDollars(total)}.`
  }
  const rate = price === undefined ? 0 : hourlyRate({ chargeMode: draft.chargeMode, price })
  return {
    lines,
    cost,
    ...(total !== undefined ? { total } : {}),
    ...(rate > 0 ? { hourlyRate: rate } : {}),
    ...(spot ? { spotRisk: SPOT_RISK } : {})
  }
}
