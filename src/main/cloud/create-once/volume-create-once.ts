/**
 * Creating a volume is not idempotent either: a create whose answer was lost may have made the
 * volume, and the user's retry then met "already exists, choose a different name", inviting a
 * second paid volume under another name. As with instances (create-once.ts), when the outcome
 * is unknown, and before a retry goes out, we look for the volume this attempt made.
 *
 * Volume names are unique per account and a volume carries no creation time, so the evidence
 * is: a volume of that name that was not there just before we sent (a list taken first), with
 * the size, region and type we asked for. A same-name volume with other fields is someone
 * else's; the create then goes out and the service's own "already exists" answers it.
 */
import type { CreateVolumeRequest, Volume } from '../../../shared/api'
import type { CloudClient } from '../types'
import { isCloudError } from '../errors'
import { createOutcomeUnknown } from './create-once'

/** Pages of this size are walked to find a volume by name. */
const VOLUME_PAGE_SIZE = 100
/** 200 pages of 100 is 20 000 volumes: far beyond any account, and a stop for a runaway list. */
const MAX_VOLUME_PAGES = 200

interface VolumeAttempt {
  request: CreateVolumeRequest
  /** Ids of volumes of this name before the attempt; undefined when that list could not be read. */
  knownIds: ReadonlySet<string> | undefined
}

export function matchesVolumeRequest(volume: Volume, request: CreateVolumeRequest): boolean {
  return (
    volume.volumeName === request.name &&
    volume.sizeGB === request.sizeGB &&
    volume.region === request.region &&
    volume.volumeType === request.volumeType
  )
}

/** Every volume of this name, walking pages until one comes back short (the list has no total). */
async function volumesNamed(cloud: CloudClient, name: string): Promise<Volume[]> {
  const found: Volume[] = []
  for (let currentPage = 1; currentPage <= MAX_VOLUME_PAGES; currentPage++) {
    const page = await cloud.listVolumes({ currentPage, pageSize: VOLUME_PAGE_SIZE })
    for (const volume of page) if (volume.volumeName === name) found.push(volume)
    if (page.length < VOLUME_PAGE_SIZE) break
  }
  return found
}

export interface VolumeCreateOnce {
  create(cloud: CloudClient, request: CreateVolumeRequest): Promise<{ volume: Volume; recovered: boolean }>
}

export function createVolumeOnce(): VolumeCreateOnce {
  const uncertainByName = new Map<string, VolumeAttempt>()

  async function lookUp(cloud: CloudClient, attempt: VolumeAttempt): Promise<Volume | undefined> {
    const named = await volumesNamed(cloud, attempt.request.name)
    return named.find((volume) => !attempt.knownIds?.has(volume.id) && matchesVolumeRequest(volume, attempt.request))
  }

  function recovered(name: string, volume: Volume): { volume: Volume; recovered: boolean } {
    uncertainByName.delete(name)
    return { volume, recovered: true }
  }

  return {
    async create(cloud, request) {
      const earlier = uncertainByName.get(request.name)
      if (earlier) {
        const found = await lookUp(cloud, earlier)
        if (found) return recovered(request.name, found)
      }
      // What had this name before we send: a volume among these was not made by this attempt.
      const knownIds =
        earlier?.knownIds ??
        (await volumesNamed(cloud, request.name).then(
          (named) => new Set(named.map((volume) => volume.id)),
          () => undefined
        ))
      const attempt: VolumeAttempt = { request, knownIds }
      try {
        const volume = await cloud.createVolume(request)
        uncertainByName.delete(request.name)
        return { volume, recovered: false }
      } catch (error) {
        // "Already exists" after an attempt whose outcome was unknown: most likely that attempt's volume.
        if (earlier && isCloudError(error) && error.kind === 'already-exists') {
          const found = await lookUp(cloud, attempt).catch(() => undefined)
          if (found) return recovered(request.name, found)
        }
        if (!createOutcomeUnknown(error)) throw error
        uncertainByName.set(request.name, attempt)
        const found = await lookUp(cloud, attempt).catch(() => undefined)
        if (found) return recovered(request.name, found)
        throw error
      }
    }
  }
}
