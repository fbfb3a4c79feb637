/**
 * The emulator's record of one instance (what the state file stores) and its rendering into
 * the spec's full list shape. Catalog entries are copied into the record at create time so an
 * instance keeps describing what it was created with even if a later run uses another catalog.
 */
import type { ChargeMode, Instance } from '../shared/api'
import type { CatalogImage, CatalogInstanceType, CatalogRegion } from './catalog'
import type { CreateRequest } from './create-request'

export interface EmuInstance {
  instanceId: string
  owner: string
  /** Creation order, for newest-first listing when two share a millisecond. */
  seq: number
  name: string
  instanceUsername: string
  image: CatalogImage
  instanceType: CatalogInstanceType
  region: CatalogRegion
  billing: { chargeMode: ChargeMode; duration: number; price: number; unit: string; type: string }
  remoteStorages: CreateRequest['remoteStorages']
  configuration: CreateRequest['configuration']
  isSpotInstance: boolean
  nodePorts: { port: number; address: string; nodePort: number }[]
  createAtUnixMs: number
  status: string
  phase: string
  message: string
  diagnosisReason: string
  diagnosisMessage: string
  healthy: boolean
  subUrl: string
  rootDiskUsedGi: number
  dataDiskUsedGi: number
  /** Unix ms of the last stop, 0 while never stopped. */
  stopTimestamp: number
  /** Unix ms when a subscription (perDay/perWeek/perMonth × duration) runs out, 0 for hourly. */
  scheduledStopTimestamp: number
  /** Emulator ms up to which billing.ts's meter has charged this instance; absent: since its create. */
  meteredUntil?: number
  /** Dollars the meter has charged for it so far. */
  charged?: number
  /**
   * True for a seeded instance past a seed's reachable share (instances.ts REACHABLE_PER_SEED):
   * it never gets SSH or port listeners, so one seed cannot open thousands of them.
   */
  unreachable?: boolean
}

/** Phase: the coarse lifecycle stage beside the status, as a Kubernetes-backed service reports it. */
export function phaseOf(status: string): string {
  switch (status) {
    case 'Initializing':
    case 'PullingImage':
    case 'Starting':
    case 'Restarting':
      return 'Pending'
    case 'Running':
      return 'Running'
    case 'Stopping':
      return 'Terminating'
    case 'StartingFailed':
    case 'InitializationFailed':
      return 'Failed'
    default:
      return 'Stopped'
  }
}

export interface ReachAddresses {
  notebookHost: string
  sshAddress: string
}

export function toApiInstance(record: EmuInstance, reach?: ReachAddresses): Instance {
  const region = record.region
  return {
    instanceMetadata: {
      instanceAuth: { ownerUserName: record.owner },
      instanceId: record.instanceId,
      instanceUsername: record.instanceUsername
    },
    instanceSpecInfo: {
      name: record.name,
      instanceBillingInfo: { ...record.billing },
      imageInfo: {
        architecture: record.image.architecture,
        isPublic: record.image.isPublic,
        name: record.image.name,
        tags: record.image.tags ? [...record.image.tags] : null,
        type: record.image.type
      },
      instanceConfiguration: {
        enableCommonData: record.configuration.enableCommonData,
        enableDocker: record.configuration.enableDocker,
        InstanceDiskAmountRequest: {
          rootDiskAmountGiReq: record.instanceType.disk.amount,
          dataDiskAmountGiReq: record.configuration.extraDataDiskSizeDB
        },
        dockerStorageSize: record.configuration.dockerStorageSize
      },
      instanceTypeInfo: {
        instanceId: record.instanceType.instanceTypeId,
        instanceTypeName: record.instanceType.instanceTypeName,
        cpu: { ...record.instanceType.cpu },
        memory: { ...record.instanceType.memory },
        gpu: { ...record.instanceType.gpu },
        disk: { ...record.instanceType.disk }
      },
      regionInfo: {
        domain: reach ? reach.notebookHost : region.domain,
        location: region.location,
        name: region.name,
        sshAddress: reach ? reach.sshAddress : region.sshAddress,
        value: region.value,
        regionId: region.regionId
      },
      remoteStorages: record.remoteStorages.map((storage) => ({ ...storage })),
      nodePorts: record.nodePorts.map((entry) => ({
        port: entry.port,
        address: reach ? reach.sshAddress : entry.address,
        nodePort: entry.nodePort
      })),
      isSpotInstance: record.isSpotInstance
    },
    instanceRuntimeInfo: {
      createAtUnixMs: record.createAtUnixMs,
      status: record.status,
      phase: record.phase,
      message: record.message,
      diagnosisReason: record.diagnosisReason,
      diagnosisMessage: record.diagnosisMessage,
      healthy: record.healthy,
      subUrl: record.subUrl,
      instanceDiskUsageInfo: { rootDiskUsedGi: record.rootDiskUsedGi, dataDiskUsedGi: record.dataDiskUsedGi },
      instanceDiskAmountInfo: {
        rootDiskAmountGi: record.instanceType.disk.amount,
        dataDiskAmountGi: record.configuration.extraDataDiskSizeDB
      },
      stopTimestamp: record.stopTimestamp,
      scheduledStopTimestamp: record.scheduledStopTimestamp
    }
  }
}
