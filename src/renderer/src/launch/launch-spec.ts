/**
 * The create form's draft and a launch spec (contract-launch.ts), both ways (pure): a template,
 * "Launch now", "Launch again" fill the draft from a spec; "Save as template" and "Notify me"
 * make a spec of the draft. Every field the request carries goes across, so a launch filled in
 * and sent back is the launch that was saved.
 */
import type { InstanceCatalog } from '../../../shared/catalog'
import { offerOf } from '../../../shared/catalog'
import type { LaunchSpec, RelaunchRule, StockTarget } from '../../../shared/contract-launch'
import { MAX_PRICE_CEILING, MAX_RELAUNCH_HOURS, MIN_PRICE_CEILING, MIN_RELAUNCH_HOURS } from '../../../shared/launch-spec'
import { draftToRequest, emptyDraft, newStorageRow, type CreateDraft } from '../create/create-form'

export function draftFromSpec(spec: LaunchSpec): CreateDraft {
  const { request } = spec
  const config = request.instanceConfiguration
  return {
    ...emptyDraft(),
    name: request.name,
    imageId: request.imageId,
    imageLabel: spec.imageLabel ?? '',
    instanceTypeId: request.instanceTypeId,
    region: request.region,
    chargeMode: request.billing.chargeMode,
    duration: request.billing.duration,
    storages: request.remoteStorages.map((storage) => ({ ...newStorageRow(), ...storage })),
    extraDataDiskSizeGB: config.extraDataDiskSizeDB ?? 0,
    enableCommonData: config.enableCommonData,
    enableDocker: config.enableDocker,
    dockerStorageSize: config.dockerStorageSize ?? 0,
    initScript: config.initScript,
    isSpotInstance: request.isSpotInstance ?? false,
    nodePorts: [...request.nodePorts]
  }
}

/** The draft as a spec, accepting `regions` (the draft's own region first). */
export function specFromDraft(draft: CreateDraft, regions: readonly string[] = []): LaunchSpec {
  const request = draftToRequest(draft)
  const label = draft.imageLabel.trim()
  return {
    request,
    regions: [...new Set([request.region, ...regions].filter((region) => region !== ''))],
    ...(label ? { imageLabel: label } : {})
  }
}

/** What "Notify me" waits for, from an offer the picker shows and the draft's billing mode. */
export function targetFor(instanceTypeId: string, regions: readonly string[], chargeMode: StockTarget['chargeMode']): StockTarget {
  return { instanceTypeId, regions: [...new Set(regions)], chargeMode }
}

/** The regions the catalog offers this type in (where a watch may wait for it), in feed order. */
export function regionsOffering(
  catalog: InstanceCatalog | null,
  instanceTypeId: string
): { regionId: string; regionName: string; inStock: boolean }[] {
  const seen = new Map<string, { regionId: string; regionName: string; inStock: boolean }>()
  for (const offer of catalog?.offers ?? []) {
    if (offer.instanceTypeId !== instanceTypeId || seen.has(offer.regionId)) continue
    seen.set(offer.regionId, { regionId: offer.regionId, regionName: offer.regionName, inStock: offer.stock === 'in-stock' })
  }
  return [...seen.values()]
}

/** The offer's stock in the draft's region, for the review step: in stock, out, or not known. */
export function stockOfDraft(catalog: InstanceCatalog | null, draft: CreateDraft): 'in-stock' | 'out-of-stock' | 'unknown' {
  return offerOf(catalog, draft.instanceTypeId.trim(), draft.region.trim())?.stock ?? 'unknown'
}

/** A price ceiling typed in (a watch's, a relaunch's) within main's bounds, or what to type instead. */
export function priceCeilingFrom(ceiling: number | null): { ok: true; value: number } | { ok: false; message: string } {
  return ceiling !== null && ceiling >= MIN_PRICE_CEILING && ceiling <= MAX_PRICE_CEILING
    ? { ok: true, value: ceiling }
    : { ok: false, message: `Enter the most it may cost per hour, $${MIN_PRICE_CEILING} to $${MAX_PRICE_CEILING}.` }
}

/** Which of a relaunch rule's boxes is wrong, and what to type there instead. */
export interface RelaunchRuleProblem {
  field: 'ceiling' | 'within'
  message: string
}

/** The rule from its two boxes (RelaunchRuleFields.svelte), or the first box that is wrong. */
export function relaunchRuleFrom(
  ceiling: number | null,
  withinHours: number | null
): { ok: true; rule: RelaunchRule } | { ok: false; problem: RelaunchRuleProblem } {
  const price = priceCeilingFrom(ceiling)
  if (!price.ok) return { ok: false, problem: { field: 'ceiling', message: price.message } }
  if (withinHours === null || !(withinHours >= MIN_RELAUNCH_HOURS && withinHours <= MAX_RELAUNCH_HOURS))
    return { ok: false, problem: { field: 'within', message: `Enter ${MIN_RELAUNCH_HOURS} to ${MAX_RELAUNCH_HOURS} hours.` } }
  return { ok: true, rule: { maxPricePerHour: price.value, withinHours } }
}
