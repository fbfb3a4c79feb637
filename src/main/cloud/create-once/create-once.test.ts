import { afterEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../../../shared/clock'
import type { Instance, NodePort } from '../../../shared/api'
import type { CreateInstanceRequest } from '../../../shared/create-request'
import { CloudError } from '../errors'
import { cutFaults } from '../testing/cut-faults'
import type { CloudClient } from '../types'
import { createCoreRig, createRequest, type CoreRig } from '../../testing/core-harness'
import { validCreateRequest } from '../../../shared/testing/create-request'
import { makeInstance } from '../../../shared/testing/instance'
import { createInstanceOnce, createOutcomeUnknown } from './create-once'
import { matchesRequest } from './create-evidence'

describe('createOutcomeUnknown', () => {
  const network = (code: string | undefined, message = 'x') =>
    new CloudError('network', message, code === undefined ? {} : { cause: Object.assign(new Error(code), { code }) })
  it.each([
    ['a reset connection', network('ECONNRESET'), true],
    ['an answer timeout', network('UND_ERR_HEADERS_TIMEOUT'), true],
    ['a network failure of unknown cause', network(undefined), true],
    ['a refused connection', network('ECONNREFUSED'), false],
    ['an unresolved name', network('ENOTFOUND'), false],
    ['a connect timeout', network('UND_ERR_CONNECT_TIMEOUT'), false],
    ['an untrusted certificate', network('DEPTH_ZERO_SELF_SIGNED_CERT'), false],
    ['a 5xx', new CloudError('server', 'The service failed (503).'), true],
    ['a garbled 2xx', new CloudError('unexpected-response', 'The answer was not JSON.'), true],
    ['an invalid field', new CloudError('invalid-request', 'field "name" is not set'), false],
    ['an expired login', new CloudError('not-logged-in', 'Sign in again.'), false],
    ['not a CloudError', new Error('boom'), false]
  ])('%s → %s', (_label, error, unknown) => {
    expect(createOutcomeUnknown(error)).toBe(unknown)
  })
})

describe('a create whose answer is lost is never duplicated', () => {
  let rig: CoreRig
  afterEach(async () => rig?.close())

  const named = (name: string) => rig.emulator.control.instances('demo').filter((instance) => instance.instanceSpecInfo.name === name)

  it('finds the instance by name right after the answer is lost', async () => {
    rig = await createCoreRig()
    await rig.login()
    // Let the poll that follows login finish, so the fault below hits the create and nothing else.
    await rig.call('instances.refresh')
    rig.emulator.control.faults.loseNextAnswers(1)
    const result = await rig.call('instances.create', { request: createRequest(rig.emulator, 'lost-answer') })
    expect(result.ok).toBe(true)
    const created = named('lost-answer')
    expect(created).toHaveLength(1)
    if (result.ok) expect(result.value.instanceId).toBe(created[0]!.instanceMetadata.instanceId)
  })

  it('creates a second instance of the same name when the user asks after a definite answer', async () => {
    rig = await createCoreRig()
    await rig.login()
    const first = await rig.call('instances.create', { request: createRequest(rig.emulator, 'twice') })
    const second = await rig.call('instances.create', { request: createRequest(rig.emulator, 'twice') })
    expect(first.ok && second.ok).toBe(true)
    expect(named('twice')).toHaveLength(2)
  })
})

/**
 * An instance as the API may answer for `request`: without the optional spot flag and
 * configuration, so each check of matchesRequest decides on its own field.
 */
function answered(id: string, name: string, status: string, extra: { createdAt?: number; nodePorts?: NodePort[] } = {}): Instance {
  const instance = makeInstance({ id, name, status, nodePorts: [], ...extra })
  delete instance.instanceSpecInfo.isSpotInstance
  delete instance.instanceSpecInfo.instanceConfiguration
  return instance
}

/** What `answered` describes (makeInstance's type and region), asked for by a create. */
const request = validCreateRequest({ name: 'gpu-box' })

/**
 * A cloud whose create answers can be lost (made, then the answer cut off) or whose create
 * requests can be dropped (never arriving), whose list can fail, and whose clock is `skewMs`
 * from the app's; it counts creates that arrived.
 */
function flakyCloud(clock: ManualClock, options: { skewMs?: number; dateHeader?: boolean } = {}) {
  const skew = options.skewMs ?? 0
  const instances: Instance[] = []
  const faults = cutFaults()
  const state = Object.assign(faults.state, { createsSent: 0 })
  const cloud = {
    async createInstance(asked: CreateInstanceRequest) {
      faults.beforeCreate()
      state.createsSent++
      const instance = answered(`notebook-${state.createsSent}`, asked.name, 'Initializing', { createdAt: clock.now() + skew })
      instances.push(instance)
      faults.afterCreate()
      return { instanceId: instance.instanceMetadata.instanceId }
    },
    async listAllInstances() {
      faults.beforeList()
      return { instances: [...instances], unreadable: [] }
    },
    // A Date header proves the offset to within a second.
    serverClock: () => (options.dateHeader === false ? undefined : { min: skew - 1000, max: skew + 1000 })
  } as unknown as CloudClient
  /** Another client of the same account makes an instance (on the server's clock). */
  const otherClient = (id: string, overrides: Partial<Instance['instanceSpecInfo']> = {}): Instance => {
    const instance = answered(id, request.name, 'Initializing', { createdAt: clock.now() + skew })
    Object.assign(instance.instanceSpecInfo, overrides)
    instances.push(instance)
    return instance
  }
  return { cloud, state, instances, otherClient }
}

/** A create-once guard and the flaky cloud it guards, on one manual clock. */
function creatorOnFlakyCloud(options: Parameters<typeof flakyCloud>[1] = {}) {
  const clock = new ManualClock()
  return { clock, creator: createInstanceOnce(clock), ...flakyCloud(clock, options) }
}

describe('createInstanceOnce', () => {
  it("looks the instance up before the user's retry and sends no second create", async () => {
    const { clock, creator, cloud, state } = creatorOnFlakyCloud()
    state.loseAnswers = 1
    state.failLists = 1 // the immediate look-up fails too: the user sees the error
    await expect(creator.create(cloud, request, [])).rejects.toMatchObject({ kind: 'network' })
    clock.advance(5_000)
    await expect(creator.create(cloud, request, [])).resolves.toEqual({ instanceId: 'notebook-1', recovered: true })
    expect(state.createsSent).toBe(1)
  })

  it('does not mistake an older instance of the same name for the lost one', async () => {
    const { creator, cloud, state, instances } = creatorOnFlakyCloud()
    await creator.create(cloud, request, [])
    const known = [...instances]
    state.loseAnswers = 1
    const recovered = await creator.create(cloud, request, known)
    expect(recovered).toEqual({ instanceId: 'notebook-2', recovered: true })
    expect(state.createsSent).toBe(2)
  })

  it('sends the retry when the look-up shows nothing was created', async () => {
    const { creator, cloud, state, instances } = creatorOnFlakyCloud()
    state.loseAnswers = 1
    state.failLists = 1
    await expect(creator.create(cloud, request, [])).rejects.toMatchObject({ kind: 'network' })
    instances.length = 0 // the cloud did not keep it after all
    await expect(creator.create(cloud, request, [])).resolves.toEqual({ instanceId: 'notebook-2', recovered: false })
    expect(state.createsSent).toBe(2)
  })

  it('#12 item 9: our request never arrived and another client made a same-name instance of another type: not adopted', async () => {
    const { creator, cloud, state, otherClient } = creatorOnFlakyCloud()
    otherClient('theirs', { instanceTypeInfo: { ...makeInstance().instanceSpecInfo.instanceTypeInfo, instanceId: 'type-2' } })
    state.dropCreates = 1
    await expect(creator.create(cloud, request, [])).rejects.toMatchObject({ kind: 'network' })
    // The retry looks again, finds nothing of ours, and sends the create.
    await expect(creator.create(cloud, request, [])).resolves.toEqual({ instanceId: 'notebook-1', recovered: false })
    expect(state.createsSent).toBe(1)
  })

  it('#12 item 9: an identical instance made after our attempt failed is not claimed: the user is asked', async () => {
    const { clock, creator, cloud, state, otherClient } = creatorOnFlakyCloud()
    state.dropCreates = 1
    await expect(creator.create(cloud, request, [])).rejects.toMatchObject({ kind: 'network' })
    clock.advance(60_000)
    otherClient('theirs')
    const asked = { kind: 'maybe-created', field: 'name', instanceId: 'theirs' }
    await expect(creator.create(cloud, request, [])).rejects.toMatchObject(asked)
    // Asking again does not send a create behind the user's back.
    await expect(creator.create(cloud, request, [])).rejects.toMatchObject(asked)
    expect(state.createsSent).toBe(0)
    // "Create anyway": that instance is not this attempt's; the create goes out once.
    await expect(creator.create(cloud, request, [], { notMine: ['theirs'] })).resolves.toEqual({
      instanceId: 'notebook-1',
      recovered: false
    })
    expect(state.createsSent).toBe(1)
  })

  it('#12 item 9: an identical instance made before our request was sent is not ours', async () => {
    const { clock, creator, cloud, state, otherClient } = creatorOnFlakyCloud()
    otherClient('theirs') // not yet in the app's snapshot
    clock.advance(30_000)
    state.dropCreates = 1
    await expect(creator.create(cloud, request, [])).rejects.toMatchObject({ kind: 'network' })
    await expect(creator.create(cloud, request, [])).resolves.toEqual({ instanceId: 'notebook-1', recovered: false })
  })

  it('#12 item 9: two identical instances inside the window: unsure, the user is asked', async () => {
    const { creator, cloud, state, otherClient } = creatorOnFlakyCloud()
    state.loseAnswers = 1
    otherClient('theirs')
    await expect(creator.create(cloud, request, [])).rejects.toMatchObject({ kind: 'maybe-created' })
    expect(state.createsSent).toBe(1)
  })

  it.each([
    ['5 minutes behind', -5 * 60_000],
    ['5 minutes ahead', 5 * 60_000],
    ['2 hours behind', -2 * 3_600_000]
  ])('#12 item 9: a server clock %s of ours: the measured offset still finds our instance', async (_label, skewMs) => {
    const { creator, cloud, state } = creatorOnFlakyCloud({ skewMs })
    state.loseAnswers = 1
    await expect(creator.create(cloud, request, [])).resolves.toEqual({ instanceId: 'notebook-1', recovered: true })
  })

  it('#12 item 9: without a Date header the offset is unknown: a same-name match is only ever "maybe"', async () => {
    const { creator, cloud, state } = creatorOnFlakyCloud({ dateHeader: false })
    state.loseAnswers = 1
    await expect(creator.create(cloud, request, [])).rejects.toMatchObject({ kind: 'maybe-created', instanceId: 'notebook-1' })
    expect(state.createsSent).toBe(1)
  })
})

describe('matchesRequest', () => {
  const base = () =>
    answered('i', 'gpu-box', 'Running', {
      nodePorts: [
        { port: 22, nodePort: 1 },
        { port: 8888, nodePort: 2 }
      ]
    })
  const asked = { ...request, nodePorts: [8888] }
  it.each<[string, (i: Instance) => void, boolean]>([
    ['the same fields', () => undefined, true],
    ['another name', (i) => void (i.instanceSpecInfo.name = 'other'), false],
    ['another type', (i) => void (i.instanceSpecInfo.instanceTypeInfo.instanceId = 'type-9'), false],
    ['another region', (i) => void (i.instanceSpecInfo.regionInfo.regionId = 'region-9'), false],
    ['another charge mode', (i) => void (i.instanceSpecInfo.instanceBillingInfo.chargeMode = 'perDay'), false],
    ['another duration', (i) => void (i.instanceSpecInfo.instanceBillingInfo.duration = 3), false],
    ['spot when we asked on-demand', (i) => void (i.instanceSpecInfo.isSpotInstance = true), false],
    ['spot by billing type', (i) => void (i.instanceSpecInfo.instanceBillingInfo.type = 'Spot'), false],
    [
      'other ports',
      (i) =>
        void (i.instanceSpecInfo.nodePorts = [
          { port: 22, nodePort: 1 },
          { port: 6006, nodePort: 3 }
        ]),
      false
    ],
    ['a port listed twice', (i) => void i.instanceSpecInfo.nodePorts.push({ port: 8888, nodePort: 4 }), true],
    ['other storage', (i) => void (i.instanceSpecInfo.remoteStorages = [{ remoteStorageId: 'vol-9' }]), false],
    [
      'Docker on',
      (i) =>
        void (i.instanceSpecInfo.instanceConfiguration = {
          enableCommonData: false,
          enableDocker: true,
          dockerStorageSize: 0,
          InstanceDiskAmountRequest: { rootDiskAmountGiReq: 1, dataDiskAmountGiReq: 1 }
        }),
      false
    ],
    ['no region id in the answer', (i) => void (i.instanceSpecInfo.regionInfo.regionId = ''), true]
  ])('%s → %s', (_label, change, matches) => {
    const instance = base()
    change(instance)
    expect(matchesRequest(instance, asked)).toBe(matches)
  })
})
