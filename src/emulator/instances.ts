/**
 * Instances: create, list, stop, terminate, and the lifecycle that moves them along.
 *
 * Boot:  Initializing ─20%→ PullingImage ─50%→ Starting ─30%→ Running   (shares of bootMs)
 * Stop:  (any live status) → Stopping ─stopMs→ Stopped
 * Spot instances can be preempted straight to Stopped; subscriptions (perDay/perWeek/perMonth)
 * stop by themselves at scheduledStopTimestamp. Every step is a Scheduler job in emulator time.
 */
import { randomUUID } from 'node:crypto'
import { priceIn, type Catalog } from './catalog'
import { ApiError, notFoundInstance } from './api-error'
import type { CreateRequest } from './create-request'
import { phaseOf, type EmuInstance } from './instance-record'
import type { Scheduler } from './scheduler'
import { NumberedRecords } from './numbered-records'

export interface InstanceHooks {
  /** The instance just became Running. */
  running(record: EmuInstance): void
  /** The instance was Running and no longer is (or is gone). */
  leftRunning(instanceId: string): void
  /** Something changed that the state file should keep. */
  changed(): void
  /** The status is about to change, or the instance to go: billing charges the span so far (billing.ts). */
  statusChanging?(record: EmuInstance): void
}

export interface LifecycleTiming {
  bootMs: number
  stopMs: number
}

export interface StatusExtra {
  /** Replaces the phase the status implies (phaseOf). */
  phase?: string
  message?: string
  diagnosisReason?: string
  diagnosisMessage?: string
}

export interface SeedOverrides {
  status?: string
  name?: string
  regionId?: string
  instanceTypeId?: string
  imageId?: string
  chargeMode?: CreateRequest['chargeMode']
  isSpotInstance?: boolean
}

const BOOT_STEPS: { from: string; to: string; share: number }[] = [
  { from: 'Initializing', to: 'PullingImage', share: 0.2 },
  { from: 'PullingImage', to: 'Starting', share: 0.5 },
  { from: 'Starting', to: 'Running', share: 0.3 }
]

/**
 * What the real service reports, for good, for an image it cannot pull (hpcai-api-facts.md 3.2):
 * the start stays here and never turns into StartingFailed.
 */
export const PULL_BACK_OFF: Required<StatusExtra> = {
  phase: 'DownloadImage',
  message: 'Pulling the image keeps failing; retrying.',
  diagnosisReason: 'BackOff',
  diagnosisMessage: 'Back-off restarting failed container download-image'
}

const PERIOD_MS: Partial<Record<CreateRequest['chargeMode'], number>> = {
  perDay: 86_400_000,
  perWeek: 7 * 86_400_000,
  perMonth: 30 * 86_400_000
}

/**
 * How many instances of one seed get reach listeners (an SSH server on their port-22 node port).
 * Seeds are for lists, benchmarks and load; a few reachable ones are enough for a terminal, and
 * one request must not open a listener per instance in the process that runs the emulator.
 */
export const REACHABLE_PER_SEED = 16

const UNREACHABLE_MESSAGE = 'Running (seeded for lists and load: no SSH or ports; create an instance to reach one).'

/** The Linux user inside every instance; SSH logs in as this. */
export const INSTANCE_USERNAME = 'root'

const STOPPED_STATUSES = new Set(['Stopped', 'Stopping', 'Archived', 'Released'])

export class InstanceStore {
  private readonly records = new NumberedRecords<EmuInstance>()

  constructor(
    private readonly scheduler: Scheduler,
    private readonly timing: LifecycleTiming,
    private readonly hooks: InstanceHooks,
    /** `reachable`: reach will listen on the port (unreachable seeds never do). */
    private readonly ports: { allocate(reachable: boolean): Promise<number>; release(port: number): void }
  ) {}

  get(instanceId: string): EmuInstance | undefined {
    return this.records.get(instanceId)
  }

  /** Owner's instances (or everyone's), newest first. */
  all(owner?: string): EmuInstance[] {
    const list: EmuInstance[] = []
    for (const record of this.records.values()) if (owner === undefined || record.owner === owner) list.push(record)
    return list.sort((a, b) => b.createAtUnixMs - a.createAtUnixMs || b.seq - a.seq)
  }

  page(owner: string, currentPage: number, pageSize: number): { records: EmuInstance[]; totalEntries: number } {
    const list = this.all(owner)
    const start = (currentPage - 1) * pageSize
    return { records: list.slice(start, start + pageSize), totalEntries: list.length }
  }

  async create(owner: string, request: CreateRequest, options: { status?: string; unreachable?: boolean } = {}): Promise<EmuInstance> {
    const now = this.scheduler.now()
    const address = request.region.sshAddress
    const nodePorts: EmuInstance['nodePorts'] = []
    for (const port of [22, ...request.nodePorts])
      nodePorts.push({ port, address, nodePort: await this.ports.allocate(!options.unreachable) })
    const periodMs = PERIOD_MS[request.chargeMode]
    const instanceId = `notebook-${randomUUID()}`
    const record: EmuInstance = {
      instanceId,
      owner,
      seq: this.records.take(),
      name: request.name,
      instanceUsername: INSTANCE_USERNAME,
      image: request.image,
      instanceType: request.instanceType,
      region: request.region,
      billing: {
        chargeMode: request.chargeMode,
        duration: request.duration,
        // readCreateRequest refuses a mode without a price; a seed falls back to the hourly one.
        price: priceIn(request.instanceType, request.chargeMode) ?? priceIn(request.instanceType, 'perHour') ?? 0,
        unit: '$',
        type: request.isSpotInstance ? 'Spot' : 'On-Demand'
      },
      remoteStorages: request.remoteStorages,
      configuration: request.configuration,
      isSpotInstance: request.isSpotInstance,
      nodePorts,
      createAtUnixMs: now,
      status: 'Initializing',
      phase: 'Pending',
      message: '',
      diagnosisReason: '',
      diagnosisMessage: '',
      healthy: false,
      subUrl: `/notebook/${instanceId}/lab`,
      rootDiskUsedGi: 0,
      dataDiskUsedGi: 0,
      stopTimestamp: 0,
      scheduledStopTimestamp: periodMs ? now + periodMs * request.duration : 0,
      ...(options.unreachable ? { unreachable: true } : {})
    }
    this.records.set(instanceId, record)
    this.scheduleSubscriptionEnd(record)
    if (options.status && options.status !== 'Initializing') this.enter(record, options.status, {})
    else {
      this.enter(record, 'Initializing', {})
      this.scheduleBootStep(record)
    }
    this.hooks.changed()
    return record
  }

  stop(owner: string, instanceId: string): EmuInstance {
    const record = this.owned(owner, instanceId)
    if (STOPPED_STATUSES.has(record.status))
      throw new ApiError(409, {
        message: `instance ${instanceId} is already ${record.status === 'Stopping' ? 'stopping' : 'stopped'}`
      })
    this.beginStop(record, 'Stopped at your request.')
    return record
  }

  terminate(owner: string, instanceId: string): EmuInstance {
    const record = this.owned(owner, instanceId)
    this.remove(record)
    return record
  }

  /** Control: put an instance in any status (known or not); it stays there until told otherwise. */
  setStatus(instanceId: string, status: string, extra: StatusExtra = {}): EmuInstance {
    const record = this.records.get(instanceId)
    if (!record) throw notFoundInstance()
    this.cancelLifecycle(record)
    this.enter(record, status, extra)
    this.hooks.changed()
    return record
  }

  /** Control: the provider reclaims a spot instance. */
  preempt(instanceId: string): EmuInstance {
    const record = this.records.get(instanceId)
    if (!record) throw notFoundInstance()
    if (!record.isSpotInstance)
      throw new ApiError(409, { message: `instance ${instanceId} is not a spot instance; only spot instances are preempted` })
    if (STOPPED_STATUSES.has(record.status))
      throw new ApiError(409, { message: `instance ${instanceId} is already ${record.status}; only a live instance can be preempted` })
    this.cancelLifecycle(record)
    this.enter(record, 'Stopped', {
      message: 'Spot instance preempted: the provider reclaimed its capacity. Your data disk is kept; start a new instance to continue.'
    })
    this.hooks.changed()
    return record
  }

  /** Control: N instances at once (Running unless a status is given), for lists, benches and load. */
  async seed(owner: string, count: number, overrides: SeedOverrides, catalog: Catalog): Promise<EmuInstance[]> {
    const pick = <T, K extends keyof T>(list: T[], key: K, id: string | undefined, what: string): T => {
      const found = id === undefined ? list[0] : list.find((item) => item[key] === id)
      if (!found) throw new ApiError(400, { message: `no ${what} with id "${id}" exists` })
      return found
    }
    const request: CreateRequest = {
      name: '',
      image: pick(catalog.images, 'imageId', overrides.imageId, 'image'),
      instanceType: pick(catalog.instanceTypes, 'instanceTypeId', overrides.instanceTypeId, 'instance type'),
      region: pick(catalog.regions, 'regionId', overrides.regionId, 'region'),
      chargeMode: overrides.chargeMode ?? 'perHour',
      duration: 1,
      remoteStorages: [],
      configuration: { extraDataDiskSizeDB: 0, enableCommonData: false, enableDocker: false, dockerStorageSize: 0, initScript: '' },
      isSpotInstance: overrides.isSpotInstance ?? false,
      nodePorts: []
    }
    const width = String(count).length
    const created: EmuInstance[] = []
    for (let index = 0; index < count; index++) {
      const name = `${overrides.name ?? 'seeded'}-${String(index + 1).padStart(width, '0')}`
      const unreachable = index >= REACHABLE_PER_SEED
      created.push(await this.create(owner, { ...request, name }, { status: overrides.status ?? 'Running', unreachable }))
    }
    return created
  }

  /** Restores records from the state file and resumes whatever they were in the middle of. */
  restore(records: EmuInstance[]): void {
    for (const record of records) {
      this.records.restore(record.instanceId, record)
    }
    for (const record of records) {
      this.scheduleSubscriptionEnd(record)
      if (BOOT_STEPS.some((step) => step.from === record.status)) this.scheduleBootStep(record)
      else if (record.status === 'Stopping') this.scheduleStopped(record)
      else if (record.status === 'Running' && !record.unreachable) this.hooks.running(record)
    }
  }

  private owned(owner: string, instanceId: string): EmuInstance {
    const record = this.records.get(instanceId)
    // Someone else's instance is "not found" too: its existence is not the caller's business.
    if (!record || record.owner !== owner) throw notFoundInstance()
    return record
  }

  private remove(record: EmuInstance): void {
    this.hooks.statusChanging?.(record)
    const wasRunning = record.status === 'Running'
    this.cancelLifecycle(record)
    this.scheduler.cancel(`sub:${record.instanceId}`)
    this.records.delete(record.instanceId)
    if (wasRunning && !record.unreachable) this.hooks.leftRunning(record.instanceId)
    for (const entry of record.nodePorts) this.ports.release(entry.nodePort)
    this.hooks.changed()
  }

  private beginStop(record: EmuInstance, stoppedMessage: string): void {
    this.cancelLifecycle(record)
    this.enter(record, 'Stopping', { message: 'Stopping: shutting down the container and saving the disks.' })
    this.scheduleStopped(record, stoppedMessage)
    this.hooks.changed()
  }

  private scheduleStopped(record: EmuInstance, message = 'Stopped.'): void {
    this.scheduler.at(`life:${record.instanceId}`, this.scheduler.now() + this.timing.stopMs, () => {
      this.enter(record, 'Stopped', { message })
      this.hooks.changed()
    })
  }

  private scheduleBootStep(record: EmuInstance): void {
    const step = BOOT_STEPS.find((candidate) => candidate.from === record.status)
    if (!step) return
    // An image that never pulls (catalog.ts): the start stays in its back-off for good.
    const neverPulls = record.image.neverPulls === true
    if (neverPulls && step.from === 'Starting') return
    this.scheduler.at(`life:${record.instanceId}`, this.scheduler.now() + this.timing.bootMs * step.share, () => {
      this.enter(record, step.to, neverPulls && step.to === 'Starting' ? PULL_BACK_OFF : {})
      this.scheduleBootStep(record)
      this.hooks.changed()
    })
  }

  private scheduleSubscriptionEnd(record: EmuInstance): void {
    if (record.scheduledStopTimestamp <= 0) return
    this.scheduler.at(`sub:${record.instanceId}`, record.scheduledStopTimestamp, () => {
      if (STOPPED_STATUSES.has(record.status)) return
      this.beginStop(
        record,
        `Stopped: the ${record.billing.chargeMode} subscription of ${record.billing.duration} period(s) ended. Create a new instance to continue.`
      )
    })
  }

  private cancelLifecycle(record: EmuInstance): void {
    this.scheduler.cancel(`life:${record.instanceId}`)
  }

  /** Sets a status and everything that follows from it; tells reach when Running is entered or left. */
  private enter(record: EmuInstance, status: string, extra: StatusExtra): void {
    this.hooks.statusChanging?.(record)
    const wasRunning = record.status === 'Running'
    const now = this.scheduler.now()
    record.status = status
    record.phase = extra.phase ?? phaseOf(status)
    record.healthy = status === 'Running'
    record.message = extra.message ?? (record.unreachable && status === 'Running' ? UNREACHABLE_MESSAGE : defaultMessage(record, status))
    record.diagnosisReason = extra.diagnosisReason ?? ''
    record.diagnosisMessage = extra.diagnosisMessage ?? ''
    if (status === 'Starting' || status === 'Running') record.rootDiskUsedGi = record.image.sizeGi
    if (status === 'Stopped') record.stopTimestamp = now
    if (record.unreachable) return
    if (wasRunning && status !== 'Running') this.hooks.leftRunning(record.instanceId)
    if (!wasRunning && status === 'Running') this.hooks.running(record)
  }
}

function defaultMessage(record: EmuInstance, status: string): string {
  switch (status) {
    case 'Initializing':
      return `Allocating ${record.instanceType.instanceTypeName} in ${record.region.name}.`
    case 'PullingImage':
      return `Pulling image ${record.image.name}.`
    case 'Starting':
      return 'Starting the container.'
    case 'Running':
      return 'Running.'
    case 'Stopped':
      return 'Stopped.'
    default:
      return ''
  }
}
