/**
 * The create form's draft and a launch spec (contract-launch.ts), both ways (pure): a template,
 * "Launch now", "Launch again" fill the draft from a spec; "Save as template" and "Notify me"
 * make a spec of the draft. Every field the request carries goes across, so a launch filled in
 * and sent back is the launch that was saved.
 */
import type { InstanceCatalog } from '../../../shared/catalog'
import { offerOf } from '../../../shared/catalog'
import type { LaunchSpec, StockTarget } from '../../../shared/contract-launch'
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
