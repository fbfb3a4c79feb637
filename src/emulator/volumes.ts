/**
 * Storage volumes. Create answers Pending with usageGB 0 (the spec's only shown state); after
 * volumeReadyMs of emulator time the volume becomes Available — our documented choice, since the
 * spec shows no later state. Names are unique per user.
 */
import { randomUUID } from 'node:crypto'
import type { Volume } from '../shared/api'
import { ApiError } from './api-error'
import type { Catalog } from './catalog'
import { requireInteger, requireString, type Body } from './fields'
import { FieldError } from './fields'
import type { Scheduler } from './scheduler'
import { NumberedRecords } from './numbered-records'

export interface EmuVolume extends Volume {
  seq: number
}

const MAX_VOLUME_GB = 1_000_000

export class VolumeStore {
  private readonly volumes = new NumberedRecords<EmuVolume>()

  constructor(
    private readonly scheduler: Scheduler,
    private readonly readyMs: number,
    private readonly changed: () => void
  ) {}

  create(username: string, body: Body, catalog: Catalog): EmuVolume {
    const name = requireString(body, 'name', 'name', { nonEmpty: true, max: 128 })
    const sizeGB = requireInteger(body, 'sizeGB', 'sizeGB', { min: 1, max: MAX_VOLUME_GB })
    const region = requireString(body, 'region')
    if (!catalog.regions.some((candidate) => candidate.regionId === region))
      throw new FieldError('region', `field "region": no region with id "${region.slice(0, 64)}" exists`)
    // Open-ended in the spec ("filesystem, highspeedstorage, etc."): any non-empty name is taken.
    const volumeType = requireString(body, 'volumeType', 'volumeType', { nonEmpty: true, max: 64 })
    for (const existing of this.volumes.values())
      if (existing.username === username && existing.volumeName === name) throw new ApiError(409, { message: 'Volume already exists' })
    const volume: EmuVolume = {
      id: randomUUID(),
      volumeName: name,
      region,
      volumeType,
      sizeGB,
      usageGB: 0,
      status: 'Pending',
      username,
      seq: this.volumes.take()
    }
    this.volumes.set(volume.id, volume)
    this.scheduleReady(volume)
    this.changed()
    return volume
  }

  /** The user's volumes, newest first, one page. */
  page(username: string, currentPage: number, pageSize: number): EmuVolume[] {
    const list = this.all(username)
    const start = (currentPage - 1) * pageSize
    return list.slice(start, start + pageSize)
  }

  all(username?: string): EmuVolume[] {
    const list = [...this.volumes.values()].filter((volume) => username === undefined || volume.username === username)
    return list.sort((a, b) => b.seq - a.seq)
  }

  restore(volumes: EmuVolume[]): void {
    for (const volume of volumes) {
      this.volumes.restore(volume.id, volume)
      if (volume.status === 'Pending') this.scheduleReady(volume)
    }
  }

  private scheduleReady(volume: EmuVolume): void {
    this.scheduler.at(`volume:${volume.id}`, this.scheduler.now() + this.readyMs, () => {
      volume.status = 'Available'
      this.changed()
    })
  }
}

/** The API shape: the record without our bookkeeping. */
export function toApiVolume(volume: EmuVolume): Volume {
  const { seq: _seq, ...rest } = volume
  return rest
}
