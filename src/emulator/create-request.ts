/**
 * POST /instance/create's body, checked in the spec's field order (name, imageId,
 * instanceTypeId, region, billing, remoteStorages, instanceConfiguration, isSpotInstance,
 * nodePorts), each field's presence, type and meaning before the next field is looked at.
 */
import { CHARGE_MODES, HOURLY_CHARGE_MODES, isChargeMode, type ChargeMode } from '../shared/api'
import { priceIn, type Catalog, type CatalogImage, type CatalogInstanceType, type CatalogRegion } from './catalog'
import {
  FieldError,
  LimitCollector,
  isObject,
  optional,
  requireArray,
  requireBoolean,
  requireInteger,
  requireObject,
  requireString,
  type Body
} from './fields'

/** More than this many forwarded ports per instance is refused: each one is a real listener. */
export const MAX_NODE_PORTS = 16
const MAX_DURATION = 1000
const MAX_DISK_GB = 100_000

export interface CreateRequest {
  name: string
  image: CatalogImage
  instanceType: CatalogInstanceType
  region: CatalogRegion
  chargeMode: ChargeMode
  duration: number
  remoteStorages: { mountPath: string; remoteStorageName: string; remoteStorageId: string; type: string }[]
  configuration: {
    extraDataDiskSizeDB: number
    enableCommonData: boolean
    enableDocker: boolean
    dockerStorageSize: number
    initScript: string
  }
  isSpotInstance: boolean
  nodePorts: number[]
}

/**
 * Every field over its limit is named in one answer (its order the spec's), as a form that
 * checks all its fields would say them; a field unset or of the wrong type ends the reading there.
 */
export function readCreateRequest(body: Body, catalog: Catalog): CreateRequest {
  const limits = new LimitCollector()
  return limits.wrap(() => readFields(body, catalog, limits))
}

function readFields(body: Body, catalog: Catalog, limits: LimitCollector): CreateRequest {
  const name = limits.check(() => requireString(body, 'name', 'name', { nonEmpty: true, max: 128 }), '')

  const imageId = requireString(body, 'imageId')
  const image = catalog.images.find((candidate) => candidate.imageId === imageId)
  if (!image) throw unknownId('imageId', imageId, 'image')

  const instanceTypeId = requireString(body, 'instanceTypeId')
  const instanceType = catalog.instanceTypes.find((candidate) => candidate.instanceTypeId === instanceTypeId)
  if (!instanceType) throw unknownId('instanceTypeId', instanceTypeId, 'instance type')

  const regionId = requireString(body, 'region')
  const region = catalog.regions.find((candidate) => candidate.regionId === regionId)
  if (!region) throw unknownId('region', regionId, 'region')
  if (instanceType.outOfStockIn.includes(region.regionId))
    throw new FieldError('instanceTypeId', `field "instanceTypeId": ${clip(instanceTypeId)} is out of stock in ${region.value}`)

  const billing = requireObject(body, 'billing')
  const chargeMode = requireString(billing, 'chargeMode', 'billing.chargeMode')
  if (!isChargeMode(chargeMode))
    throw new FieldError(
      'billing.chargeMode',
      `field "billing.chargeMode" must be one of ${CHARGE_MODES.join(', ')}, not "${clip(chargeMode)}"`
    )
  // A mode the type's catalog entry leaves out, or prices as null, is not offered (catalog.ts).
  if (priceIn(instanceType, chargeMode) === undefined)
    throw new FieldError('billing.chargeMode', `field "billing.chargeMode": ${clip(instanceTypeId)} is not offered ${chargeMode}`)
  const duration = limits.check(() => requireInteger(billing, 'duration', 'billing.duration', { min: 1, max: MAX_DURATION }), 1)
  if (HOURLY_CHARGE_MODES.includes(chargeMode) && duration !== 1)
    throw new FieldError('billing.duration', `field "billing.duration" must be 1 when billing ${chargeMode}, not ${duration}`)

  const remoteStorages = requireArray(body, 'remoteStorages').map((element, index) => {
    const path = `remoteStorages.${index}`
    if (!isObject(element)) throw new FieldError(path, `field "${path}" must be an object`)
    return {
      mountPath: requireString(element, 'mountPath', `${path}.mountPath`, { nonEmpty: true }),
      remoteStorageName: requireString(element, 'remoteStorageName', `${path}.remoteStorageName`),
      remoteStorageId: requireString(element, 'remoteStorageId', `${path}.remoteStorageId`),
      type: requireString(element, 'type', `${path}.type`)
    }
  })

  const config = requireObject(body, 'instanceConfiguration')
  const disk = { min: 0, max: MAX_DISK_GB }
  const configuration = {
    extraDataDiskSizeDB: limits.check(
      () =>
        optional(config, 'extraDataDiskSizeDB', 0, () =>
          requireInteger(config, 'extraDataDiskSizeDB', 'instanceConfiguration.extraDataDiskSizeDB', disk)
        ),
      0
    ),
    enableCommonData: requireBoolean(config, 'enableCommonData', 'instanceConfiguration.enableCommonData'),
    enableDocker: requireBoolean(config, 'enableDocker', 'instanceConfiguration.enableDocker'),
    dockerStorageSize: limits.check(
      () =>
        optional(config, 'dockerStorageSize', 0, () =>
          requireInteger(config, 'dockerStorageSize', 'instanceConfiguration.dockerStorageSize', disk)
        ),
      0
    ),
    initScript: limits.check(() => requireString(config, 'initScript', 'instanceConfiguration.initScript', { max: 64 * 1024 }), '')
  }

  // Spot capacity is a type of its own: every instance of a spot type is a spot instance.
  const isSpotInstance = optional(body, 'isSpotInstance', false, () => requireBoolean(body, 'isSpotInstance')) || instanceType.spot

  const ports = requireArray(body, 'nodePorts')
  if (ports.length > MAX_NODE_PORTS)
    throw new FieldError('nodePorts', `field "nodePorts" may list at most ${MAX_NODE_PORTS} ports, not ${ports.length}`)
  const nodePorts: number[] = []
  ports.forEach((port, index) => {
    const path = `nodePorts.${index}`
    const value = requireInteger({ port }, 'port', path, { min: 1, max: 65535 })
    if (value === 22) throw new FieldError(path, `field "${path}": port 22 is SSH and is always forwarded; leave it out`)
    if (nodePorts.includes(value)) throw new FieldError(path, `field "${path}": port ${value} is listed twice`)
    nodePorts.push(value)
  })

  return { name, image, instanceType, region, chargeMode, duration, remoteStorages, configuration, isSpotInstance, nodePorts }
}

function unknownId(field: string, id: string, what: string): FieldError {
  return new FieldError(field, `field "${field}": no ${what} with id "${clip(id)}" exists`)
}

/** Echoes caller text only in short form, so a huge value cannot bloat the error body. */
function clip(text: string): string {
  return text.length > 64 ? `${text.slice(0, 61)}...` : text
}
