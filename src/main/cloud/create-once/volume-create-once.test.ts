import { afterEach, describe, expect, it } from 'vitest'
import { createCloudClient } from '../client'
import { createCoreRig, type CoreRig } from '../../testing/core-harness'
import type { CreateVolumeRequest, PagerRequest, Volume } from '../../../shared/api'
import { CloudError } from '../errors'
import { cutFaults } from '../testing/cut-faults'
import type { CloudClient } from '../types'
import { createVolumeOnce, matchesVolumeRequest } from './volume-create-once'

const request: CreateVolumeRequest = { name: 'datasets', sizeGB: 200, region: 'region-1', volumeType: 'filesystem' }

/** Volumes with unique names, as the service keeps them; creates can lose their answer or never arrive. */
function volumeCloud() {
  const volumes: Volume[] = []
  const faults = cutFaults()
  const state = Object.assign(faults.state, { createsArrived: 0 })
  const add = (asked: CreateVolumeRequest, id: string): Volume => {
    const volume = {
      id,
      volumeName: asked.name,
      region: asked.region,
      volumeType: asked.volumeType,
      sizeGB: asked.sizeGB,
      usageGB: 0,
      status: 'Pending',
      username: 'demo'
    }
    volumes.unshift(volume)
    return volume
  }
  const cloud = {
    async createVolume(asked: CreateVolumeRequest) {
      faults.beforeCreate()
      state.createsArrived++
      if (volumes.some((v) => v.volumeName === asked.name))
        throw new CloudError('already-exists', 'Volume already exists', { field: 'name' })
      const volume = add(asked, `vol-${state.createsArrived}`)
      faults.afterCreate()
      return volume
    },
    async listVolumes(pager: PagerRequest) {
      faults.beforeList()
      const start = (pager.currentPage - 1) * pager.pageSize
      return volumes.slice(start, start + pager.pageSize)
    }
  } as unknown as CloudClient
  return { cloud, state, volumes, add }
}

describe('createVolumeOnce', () => {
  it('#12 item 8: a create whose answer was lost reports the volume it made, and sends no second create', async () => {
    const { cloud, state, volumes } = volumeCloud()
    const creator = createVolumeOnce()
    state.loseAnswers = 1
    const result = await creator.create(cloud, request)
    expect(result).toEqual({ volume: volumes[0], recovered: true })
    expect(volumes).toHaveLength(1)
    expect(state.createsArrived).toBe(1)
  })

  it('#12 item 8: when the immediate look-up fails too, the retry finds the volume instead of "already exists"', async () => {
    const { cloud, state, volumes } = volumeCloud()
    const creator = createVolumeOnce()
    state.loseAnswers = 1
    // The list before sending works; the look-up after the lost answer does not.
    const listVolumes = cloud.listVolumes.bind(cloud)
    let lists = 0
    cloud.listVolumes = async (pager) => (++lists === 2 ? Promise.reject(new CloudError('network', 'cut')) : listVolumes(pager))
    await expect(creator.create(cloud, request)).rejects.toMatchObject({ kind: 'network' })
    await expect(creator.create(cloud, request)).resolves.toEqual({ volume: volumes[0], recovered: true })
    expect(state.createsArrived).toBe(1)
  })

  it('a volume that already had the name is never taken for ours: the service says it exists', async () => {
    const { cloud, state, add } = volumeCloud()
    const creator = createVolumeOnce()
    add(request, 'older')
    state.loseAnswers = 1
    await expect(creator.create(cloud, request)).rejects.toMatchObject({ kind: 'already-exists' })
  })

  it('a request that never arrived, and a same-name volume of another size made meanwhile: not ours', async () => {
    const { cloud, state, add } = volumeCloud()
    const creator = createVolumeOnce()
    state.dropCreates = 1
    await expect(creator.create(cloud, request)).rejects.toMatchObject({ kind: 'network' })
    add({ ...request, sizeGB: 10 }, 'theirs')
    await expect(creator.create(cloud, request)).rejects.toMatchObject({ kind: 'already-exists' })
    expect(state.createsArrived).toBe(1)
  })

  it('finds the volume behind pages of newer ones on a later retry', async () => {
    const { cloud, state, add } = volumeCloud()
    const creator = createVolumeOnce()
    state.loseAnswers = 1
    state.failLists = 0
    const listVolumes = cloud.listVolumes.bind(cloud)
    let failNext = false
    cloud.listVolumes = async (pager) => {
      if (failNext) {
        failNext = false
        throw new CloudError('network', 'cut')
      }
      return listVolumes(pager)
    }
    const createVolume = cloud.createVolume.bind(cloud)
    cloud.createVolume = async (asked) => {
      failNext = true // the look-up right after the lost answer fails
      return createVolume(asked)
    }
    await expect(creator.create(cloud, request)).rejects.toMatchObject({ kind: 'network' })
    for (let n = 0; n < 250; n++) add({ ...request, name: `other-${n}` }, `o${n}`)
    await expect(creator.create(cloud, request)).resolves.toMatchObject({ recovered: true, volume: { id: 'vol-1' } })
    expect(state.createsArrived).toBe(1)
  })

  it.each<[string, Partial<Volume>, boolean]>([
    ['the same fields', {}, true],
    ['another size', { sizeGB: 1 }, false],
    ['another region', { region: 'region-2' }, false],
    ['another type', { volumeType: 'highspeedstorage' }, false],
    ['another name', { volumeName: 'x' }, false]
  ])('matchesVolumeRequest: %s → %s', (_label, change, matches) => {
    const volume = {
      id: 'v',
      volumeName: 'datasets',
      region: 'region-1',
      volumeType: 'filesystem',
      sizeGB: 200,
      usageGB: 0,
      status: 'Pending',
      username: 'demo',
      ...change
    }
    expect(matchesVolumeRequest(volume, request)).toBe(matches)
  })
})

describe('volumes.create through the core, against the emulator', () => {
  let rig: CoreRig | undefined
  afterEach(async () => {
    await rig?.close()
    rig = undefined
  })

  it('#12 item 8: the answer of a real create is lost; the app reports the volume, never "already exists"', async () => {
    let loseNext = true
    rig = await createCoreRig({
      core: {
        // The real client, whose volume create reaches the emulator and then loses its answer.
        cloudClientFactory: (options) => {
          const client = createCloudClient(options)
          return {
            ...client,
            async createVolume(asked) {
              const made = await client.createVolume(asked)
              if (!loseNext) return made
              loseNext = false
              throw new CloudError('network', 'The connection was cut off before an answer came.', {
                cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })
              })
            }
          }
        }
      }
    })
    await rig.login()
    const region = rig.emulator.control.catalog().regions[0]!.regionId
    const asked = { name: 'datasets', sizeGB: 200, region, volumeType: 'filesystem' }
    const created = await rig.call('volumes.create', asked)
    const onServer = rig.emulator.control.volumes('demo')
    expect(onServer).toHaveLength(1)
    expect(created).toEqual({ ok: true, value: onServer[0] })
    // Asking again now is a new create of a taken name: the service's own answer.
    expect(await rig.call('volumes.create', asked)).toMatchObject({ ok: false, error: { kind: 'already-exists' } })
    expect(rig.emulator.control.volumes('demo')).toHaveLength(1)
  })
})
