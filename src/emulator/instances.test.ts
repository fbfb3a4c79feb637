import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InstanceSchema } from '../shared/api'
import { ManualClock } from '../shared/clock'
import type { Emulator } from './index'
import { IMAGE_ID, REGION_ID, TYPE_ID, login, pager, post, validCreate, signedInEmulator } from './testing/http-client'

let emulator: Emulator
let token: string
let clock: ManualClock

beforeEach(async () => {
  clock = new ManualClock()
  ;({ emulator, token } = await signedInEmulator({
    clock,
    bootMs: 10_000,
    stopMs: 2000,
    users: [
      { username: 'demo', password: 'demo' },
      { username: 'ada', password: 'lovelace' }
    ]
  }))
})
afterEach(() => emulator.close())

const create = (body: unknown, as = token) => post(emulator.baseUrl, '/instance/create', body, as)
const list = (page = 1, size = 50, as = token) => post(emulator.baseUrl, '/instance/list', pager(page, size), as)
const statusOf = async (instanceId: string): Promise<string> =>
  (await list()).body.instances.find((i: any) => i.instanceMetadata.instanceId === instanceId).instanceRuntimeInfo.status

function without(body: Record<string, any>, path: string): Record<string, any> {
  const copy = structuredClone(body)
  const keys = path.split('.')
  let target = copy
  for (const key of keys.slice(0, -1)) target = target[key]
  delete target[keys.at(-1)!]
  return copy
}

describe('create: validation', () => {
  it('reports each missing required field by dotted path, with no code', async () => {
    const required = [
      'name',
      'imageId',
      'instanceTypeId',
      'region',
      'billing',
      'billing.chargeMode',
      'billing.duration',
      'remoteStorages',
      'instanceConfiguration',
      'instanceConfiguration.enableCommonData',
      'instanceConfiguration.enableDocker',
      'instanceConfiguration.initScript',
      'nodePorts'
    ]
    for (const field of required) {
      const answer = await create(without(validCreate(), field))
      expect(answer.status, field).toBe(400)
      expect(answer.body, field).toEqual({ message: `field "${field}" is not set` })
    }
  })

  it('reports the first missing field in the spec order, and null counts as unset', async () => {
    const body = without(without(validCreate(), 'nodePorts'), 'instanceConfiguration.enableDocker')
    expect((await create(body)).body.message).toBe('field "instanceConfiguration.enableDocker" is not set')
    expect((await create({ ...body, region: null })).body.message).toBe('field "region" is not set')
    expect((await create({})).body.message).toBe('field "name" is not set')
  })

  it('takes the optional fields absent', async () => {
    const body = without(
      without(without(validCreate(), 'isSpotInstance'), 'instanceConfiguration.dockerStorageSize'),
      'instanceConfiguration.extraDataDiskSizeDB'
    )
    expect((await create(body)).status).toBe(200)
  })

  it('names the field of every wrong type or value', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ name: 42 }, 'name', /must be a string/],
      [{ billing: { chargeMode: 'perYear', duration: 1 } }, 'billing.chargeMode', /must be one of perHour/],
      [{ billing: { chargeMode: 'perHour', duration: 2 } }, 'billing.duration', /must be 1/],
      [{ billing: { chargeMode: 'tidePerHour', duration: 3 } }, 'billing.duration', /must be 1/],
      [{ billing: { chargeMode: 'perWeek', duration: 1.5 } }, 'billing.duration', /whole number/],
      [{ billing: { chargeMode: 'perDay', duration: '3' } }, 'billing.duration', /must be a number/],
      [{ billing: 'perHour' }, 'billing', /must be an object/],
      [{ nodePorts: [0] }, 'nodePorts.0', /between 1 and 65535/],
      [{ nodePorts: [8888, 70000] }, 'nodePorts.1', /between 1 and 65535/],
      [{ nodePorts: [80.5] }, 'nodePorts.0', /whole number/],
      [{ nodePorts: ['8888'] }, 'nodePorts.0', /must be a number/],
      [{ nodePorts: [22] }, 'nodePorts.0', /port 22 is SSH/],
      [{ nodePorts: [8000, 8000] }, 'nodePorts.1', /listed twice/],
      [{ nodePorts: 8888 }, 'nodePorts', /must be an array/],
      [{ imageId: 'img-nope' }, 'imageId', /no image with id "img-nope"/],
      [{ instanceTypeId: 'gpu-b200' }, 'instanceTypeId', /no instance type/],
      [{ region: 'mars-1' }, 'region', /no region/],
      [{ isSpotInstance: 'yes' }, 'isSpotInstance', /true or false/],
      [{ remoteStorages: [{ mountPath: '/data' }] }, 'remoteStorages.0.remoteStorageName', /is not set/],
      [
        { instanceConfiguration: { ...validCreate().instanceConfiguration, enableDocker: 'true' } },
        'instanceConfiguration.enableDocker',
        /true or false/
      ]
    ]
    for (const [override, field, pattern] of cases) {
      const answer = await create(validCreate(override))
      expect(answer.status, field).toBe(400)
      expect(answer.body.code, field).toBeUndefined()
      expect(answer.body.message, field).toContain(`field "${field}"`)
      expect(answer.body.message, field).toMatch(pattern)
    }
  })

  it('names every field over its limit in one answer, in the spec order (#24)', async () => {
    const answer = await create(
      validCreate({
        name: 'n'.repeat(500),
        billing: { chargeMode: 'perDay', duration: 5000 },
        instanceConfiguration: { ...validCreate().instanceConfiguration, enableDocker: true, dockerStorageSize: 1e20 }
      })
    )
    expect(answer.status).toBe(400)
    expect(answer.body.message).toBe(
      'field "name" must be at most 128 characters long; field "billing.duration" must be between 1 and 1000, not 5000; ' +
        'field "instanceConfiguration.dockerStorageSize" must be between 0 and 100000, not 100000000000000000000'
    )
    // A field of the wrong shape ends the reading, and still names the limits found before it.
    const both = await create(validCreate({ name: 'n'.repeat(500), imageId: 'img-nope' }))
    expect(both.body.message).toMatch(/^field "name" must be at most 128 characters long; field "imageId": no image/)
    expect(emulator.control.instances('demo')).toHaveLength(0)
  })

  it('accepts multi-period subscriptions', async () => {
    expect((await create(validCreate({ billing: { chargeMode: 'perWeek', duration: 3 } }))).status).toBe(200)
  })

  it('needs a login', async () => {
    const answer = await post(emulator.baseUrl, '/instance/create', validCreate())
    expect(answer.status).toBe(401)
    expect(answer.body.code).toBe(-1)
  })
})

describe('create and list', () => {
  it('answers notebook-<uuid v4> and lists the instance in the full shape', async () => {
    const answer = await create(validCreate({ nodePorts: [8888, 6006] }))
    expect(answer.status).toBe(200)
    expect(answer.body.instanceId).toMatch(/^notebook-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const listed = await list()
    expect(listed.body.pager).toEqual({ currentPage: 1, pageSize: 50, totalEntries: 1 })
    const instance = listed.body.instances[0]
    // Every field of the full shape is present (the schema marks some optional; here none may be missing).
    expect(InstanceSchema.parse(instance)).toEqual(instance)
    expect(instance.instanceSpecInfo.imageInfo).toBeDefined()
    expect(instance.instanceRuntimeInfo.instanceDiskUsageInfo).toBeDefined()
    expect(instance.instanceMetadata).toEqual({
      instanceAuth: { ownerUserName: 'demo' },
      instanceId: answer.body.instanceId,
      instanceUsername: 'root'
    })
    expect(instance.instanceSpecInfo.instanceBillingInfo).toEqual({
      chargeMode: 'perHour',
      duration: 1,
      price: 2.49,
      unit: '$',
      type: 'On-Demand'
    })
    expect(instance.instanceSpecInfo.regionInfo.regionId).toBe(REGION_ID)
    expect(instance.instanceSpecInfo.instanceTypeInfo.instanceId).toBe(TYPE_ID)
    expect(instance.instanceSpecInfo.instanceTypeInfo.gpu).toMatchObject({ amount: 1, type: expect.stringContaining('H100') })
    expect(instance.instanceSpecInfo.instanceConfiguration.InstanceDiskAmountRequest).toEqual({
      rootDiskAmountGiReq: 500,
      dataDiskAmountGiReq: 100
    })
    const ports = instance.instanceSpecInfo.nodePorts
    expect(ports.map((entry: any) => entry.port)).toEqual([22, 8888, 6006])
    for (const entry of ports) {
      expect(entry.address).toBe('127.0.0.1')
      expect(entry.nodePort).toBeGreaterThan(0)
    }
    expect(new Set(ports.map((entry: any) => entry.nodePort)).size).toBe(3)
    expect(instance.instanceRuntimeInfo).toMatchObject({
      createAtUnixMs: clock.now(),
      status: 'Initializing',
      phase: 'Pending',
      healthy: false,
      subUrl: `/notebook/${answer.body.instanceId}/lab`,
      stopTimestamp: 0,
      scheduledStopTimestamp: 0
    })
  })

  it("pages from 1, newest first, with totalEntries, and only the caller's instances", async () => {
    await emulator.control.seedInstances('ada', 3)
    const ids: string[] = []
    for (let index = 0; index < 7; index++) {
      ids.push((await create(validCreate({ name: `vm-${index}`, nodePorts: [] }))).body.instanceId)
      clock.advance(1)
    }
    const newestFirst = [...ids].reverse()
    const pages = await Promise.all([1, 2, 3].map((page) => list(page, 3)))
    expect(pages.map((page) => page.body.pager.totalEntries)).toEqual([7, 7, 7])
    expect(pages.flatMap((page) => page.body.instances.map((i: any) => i.instanceMetadata.instanceId))).toEqual(newestFirst)
    expect(pages[2]!.body.instances).toHaveLength(1)
    expect((await list(4, 3)).body.instances).toEqual([])
    const ada = await login(emulator.baseUrl, 'ada', 'lovelace')
    const adaList = await list(1, 50, ada)
    expect(adaList.body.pager.totalEntries).toBe(3)
    expect(adaList.body.instances.every((i: any) => i.instanceMetadata.instanceAuth.ownerUserName === 'ada')).toBe(true)
  })

  it('requires the pager', async () => {
    for (const [body, field] of [
      [{}, 'pager'],
      [{ pager: { pageSize: 10 } }, 'pager.currentPage'],
      [{ pager: { currentPage: 1 } }, 'pager.pageSize'],
      [{ pager: { currentPage: 0, pageSize: 10 } }, 'pager.currentPage'],
      [{ pager: { currentPage: 1, pageSize: 1001 } }, 'pager.pageSize']
    ] as const) {
      const answer = await post(emulator.baseUrl, '/instance/list', body, token)
      expect(answer.status).toBe(400)
      expect(answer.body.message).toContain(`field "${field}"`)
    }
  })

  it('serves 1000 seeded instances in one page', async () => {
    await emulator.control.seedInstances('demo', 1000)
    const answer = await list(1, 1000)
    expect(answer.body.instances).toHaveLength(1000)
    expect(answer.body.instances.every((i: any) => i.instanceRuntimeInfo.status === 'Running')).toBe(true)
  })
})

describe('lifecycle', () => {
  it('boots Initializing → PullingImage → Starting → Running on shares of bootMs', async () => {
    const { instanceId } = (await create(validCreate())).body
    const seen = [await statusOf(instanceId)]
    for (const step of [2000, 5000, 3000]) {
      emulator.control.advance(step - 1)
      expect(await statusOf(instanceId)).toBe(seen.at(-1))
      emulator.control.advance(1)
      seen.push(await statusOf(instanceId))
    }
    expect(seen).toEqual(['Initializing', 'PullingImage', 'Starting', 'Running'])
    const running = (await list()).body.instances[0].instanceRuntimeInfo
    expect(running).toMatchObject({ phase: 'Running', healthy: true })
    expect(running.instanceDiskUsageInfo.rootDiskUsedGi).toBeGreaterThan(0)
  })

  it('boots on the clock alone too', async () => {
    const { instanceId } = (await create(validCreate())).body
    clock.advance(10_000)
    expect(await statusOf(instanceId)).toBe('Running')
  })

  it('stops: Stopping → Stopped with stopTimestamp; stopping again is an error', async () => {
    const { instanceId } = (await create(validCreate())).body
    emulator.control.advance(10_000)
    const stop = await post(emulator.baseUrl, '/instance/stop', { instanceId }, token)
    expect(stop).toEqual({ status: 200, body: { instanceId } })
    expect(await statusOf(instanceId)).toBe('Stopping')
    const again = await post(emulator.baseUrl, '/instance/stop', { instanceId }, token)
    expect(again.status).toBe(409)
    expect(again.body.message).toMatch(/already stopping/)
    emulator.control.advance(2000)
    const stopped = (await list()).body.instances[0].instanceRuntimeInfo
    expect(stopped).toMatchObject({ status: 'Stopped', healthy: false, stopTimestamp: emulator.control.now() })
    const third = await post(emulator.baseUrl, '/instance/stop', { instanceId }, token)
    expect(third.status).toBe(409)
    expect(third.body).toEqual({ message: `instance ${instanceId} is already stopped` })
  })

  it('stop of an unknown or someone else\'s instance is "not found"', async () => {
    const [adaInstance] = await emulator.control.seedInstances('ada', 1)
    for (const instanceId of ['notebook-00000000-0000-4000-8000-000000000000', adaInstance]) {
      const answer = await post(emulator.baseUrl, '/instance/stop', { instanceId }, token)
      expect(answer).toEqual({ status: 404, body: { message: 'ent: instance not found' } })
    }
    expect((await post(emulator.baseUrl, '/instance/stop', {}, token)).body.message).toBe('field "instanceId" is not set')
  })

  it('terminate removes the instance from the list', async () => {
    const { instanceId } = (await create(validCreate())).body
    expect(await post(emulator.baseUrl, '/instance/terminate', { instanceId }, token)).toEqual({ status: 200, body: { instanceId } })
    expect((await list()).body.pager.totalEntries).toBe(0)
    expect((await post(emulator.baseUrl, '/instance/terminate', { instanceId }, token)).status).toBe(404)
  })

  it('control.setStatus sets any status with diagnosis, and it sticks', async () => {
    const { instanceId } = (await create(validCreate())).body
    emulator.control.setStatus(instanceId, 'StartingFailed', {
      diagnosisReason: 'ImagePullBackOff',
      diagnosisMessage: 'Back-off pulling image'
    })
    emulator.control.advance(60_000)
    const runtime = (await list()).body.instances[0].instanceRuntimeInfo
    expect(runtime).toMatchObject({
      status: 'StartingFailed',
      phase: 'Failed',
      healthy: false,
      diagnosisReason: 'ImagePullBackOff',
      diagnosisMessage: 'Back-off pulling image'
    })
    emulator.control.setStatus(instanceId, 'Hibernating')
    expect(await statusOf(instanceId)).toBe('Hibernating')
    expect(() => emulator.control.setStatus('notebook-missing', 'Running')).toThrow(/not found/)
  })

  it('preempts a spot instance to Stopped with a message saying so; not an on-demand one', async () => {
    const [spot] = await emulator.control.seedInstances('demo', 1, { isSpotInstance: true })
    emulator.control.preempt(spot!)
    const instance = (await list()).body.instances[0]
    expect(instance.instanceSpecInfo.instanceBillingInfo.type).toBe('Spot')
    expect(instance.instanceRuntimeInfo.status).toBe('Stopped')
    expect(instance.instanceRuntimeInfo.message).toMatch(/preempted/i)
    expect(() => emulator.control.preempt(spot!)).toThrow(/already Stopped/)
    const [onDemand] = await emulator.control.seedInstances('demo', 1)
    expect(() => emulator.control.preempt(onDemand!)).toThrow(/not a spot instance/)
  })

  it('stops a subscription at scheduledStopTimestamp', async () => {
    const { instanceId } = (await create(validCreate({ billing: { chargeMode: 'perDay', duration: 2 } }))).body
    const created = clock.now()
    const runtime = (await list()).body.instances[0].instanceRuntimeInfo
    expect(runtime.scheduledStopTimestamp).toBe(created + 2 * 86_400_000)
    emulator.control.advance(2 * 86_400_000)
    token = await login(emulator.baseUrl) // the first token expired a day ago
    expect(await statusOf(instanceId)).toBe('Stopping')
    emulator.control.advance(2000)
    const stopped = (await list()).body.instances[0].instanceRuntimeInfo
    expect(stopped.status).toBe('Stopped')
    expect(stopped.message).toMatch(/subscription/)
  })

  it('seeds with overrides and refuses unknown catalog ids', async () => {
    await emulator.control.seedInstances('demo', 2, { status: 'Stopped', name: 'batch', imageId: IMAGE_ID })
    const names = (await list()).body.instances.map((i: any) => [i.instanceSpecInfo.name, i.instanceRuntimeInfo.status])
    expect(names).toEqual([
      ['batch-2', 'Stopped'],
      ['batch-1', 'Stopped']
    ])
    await expect(emulator.control.seedInstances('demo', 1, { regionId: 'nowhere' })).rejects.toThrow(/no region/)
  })
})
