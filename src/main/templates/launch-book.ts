/**
 * What each instance was launched with, as this app sent it (`<dataDir>/launches.json`, per
 * account): "Launch again" and a relaunch after a spot reclaim fill every field from here,
 * including what an instance's listing never says (its image id, its init script). For an
 * instance launched elsewhere the listing is read back instead (specFromListing), and what it
 * cannot say is named so the form asks for it.
 */
import { z } from 'zod'
import type { Instance } from '../../shared/api'
import { isChargeMode } from '../../shared/api'
import type { KnownImage } from '../../shared/contract'
import type { LaunchOrigin, LaunchSpec } from '../../shared/contract-launch'
import { CreateInstanceRequestSchema, type CreateInstanceRequest } from '../../shared/create-request'
import { SSH_PORT, isSpot } from '../../shared/instance-rules'
import type { ScopedStore, scopedStoresOf } from '../util/scoped-store'

/** Far more instances than anyone keeps listed; the oldest records go first. */
export const MAX_LAUNCHES_PER_ACCOUNT = 500

const id = z.string().min(1).max(200)

export const LaunchRecordSchema = z.object({
  request: CreateInstanceRequestSchema,
  origin: z.object({ templateId: id.optional(), watchId: id.optional(), relaunchOf: id.optional() }).strict().optional(),
  at: z.number().finite()
})
export type LaunchRecord = z.infer<typeof LaunchRecordSchema>

/** The book, made by `store` (its part's data folder, clock and log: scopedStoresOf). */
export function launchBook(store: ReturnType<typeof scopedStoresOf>): ScopedStore<LaunchRecord> {
  return store({
    file: 'launches.json',
    record: LaunchRecordSchema,
    what: 'what your instances were launched with (for Launch again)',
    limit: { perScope: MAX_LAUNCHES_PER_ACCOUNT, age: (record) => record.at }
  })
}

export function launchRecord(request: CreateInstanceRequest, origin: LaunchOrigin | undefined, at: number): LaunchRecord {
  const kept = origin && Object.keys(origin).length > 0 ? { origin } : {}
  return { request, ...kept, at }
}

/** A spec read back from an instance's listing, and the fields it could not say. */
export interface ListedSpec {
  spec: LaunchSpec
  missing: string[]
}

/**
 * The launch an instance's listing describes. The listing names its image, not the image id a
 * create sends: an image the form knows under that name is taken, else the image is missing. It
 * never carries the init script (left empty, and said).
 */
export function specFromListing(instance: Instance, images: readonly KnownImage[]): ListedSpec {
  const spec = instance.instanceSpecInfo
  const missing: string[] = ['instanceConfiguration.initScript']
  const imageName = spec.imageInfo?.name.trim() ?? ''
  const image = imageName ? images.find((known) => known.label.trim() === imageName || known.imageId === imageName) : undefined
  if (!image) missing.unshift('imageId')
  const billing = spec.instanceBillingInfo
  const chargeMode = isChargeMode(billing.chargeMode) ? billing.chargeMode : 'perHour'
  if (!isChargeMode(billing.chargeMode)) missing.push('billing.chargeMode')
  const hourly = chargeMode === 'perHour' || chargeMode === 'tidePerHour'
  const configuration = spec.instanceConfiguration
  const ports = [...new Set(spec.nodePorts.map((entry) => entry.port))].filter((port) => port !== SSH_PORT)
  const request: CreateInstanceRequest = {
    name: spec.name,
    imageId: image?.imageId ?? '',
    instanceTypeId: spec.instanceTypeInfo.instanceId,
    region: spec.regionInfo.regionId,
    billing: { chargeMode, duration: hourly ? 1 : Math.max(1, Math.round(billing.duration)) },
    remoteStorages: (spec.remoteStorages ?? []).map((storage) => ({
      mountPath: storage.mountPath ?? '',
      remoteStorageName: storage.remoteStorageName ?? '',
      remoteStorageId: storage.remoteStorageId ?? '',
      type: storage.type ?? ''
    })),
    instanceConfiguration: {
      extraDataDiskSizeDB: configuration?.InstanceDiskAmountRequest.dataDiskAmountGiReq ?? 0,
      enableCommonData: configuration?.enableCommonData ?? false,
      enableDocker: configuration?.enableDocker ?? false,
      dockerStorageSize: configuration?.dockerStorageSize ?? 0,
      initScript: ''
    },
    isSpotInstance: isSpot(instance),
    nodePorts: ports
  }
  return {
    spec: { request, regions: [request.region], ...(image && image.label !== image.imageId ? { imageLabel: image.label } : {}) },
    missing
  }
}
