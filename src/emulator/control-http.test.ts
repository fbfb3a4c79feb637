import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../shared/clock'
import { DEFAULT_CATALOG } from './catalog'
import type { Emulator } from './index'
import { controlClient, pager, post, validCreate, signedInEmulator } from './testing/http-client'

let emulator: Emulator
let token: string

beforeEach(async () => {
  ;({ emulator, token } = await signedInEmulator({ clock: new ManualClock(), bootMs: 4000 }))
})
afterEach(() => emulator.close())

const control = (path: string, body?: unknown) => controlClient(emulator)(path, body)
const list = () => post(emulator.baseUrl, '/instance/list', pager(1, 50), token)

describe('/__emulator/ over HTTP', () => {
  it('GET /catalog returns regions, instance types and images with their ids', async () => {
    const answer = await control('/catalog')
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual(DEFAULT_CATALOG)
    expect(answer.body.regions[0].regionId).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('seeds, sets a status, advances time and lists the records', async () => {
    const seeded = await control('/seed', { username: 'demo', count: 3, status: 'Starting' })
    expect(seeded.body.instanceIds).toHaveLength(3)
    const [first] = seeded.body.instanceIds
    expect((await control('/status', { instanceId: first, status: 'StartingFailed', diagnosisReason: 'OOMKilled' })).status).toBe(200)
    const records = await control('/instances?username=demo')
    const failed = records.body.instances.find((i: any) => i.instanceMetadata.instanceId === first)
    expect(failed.instanceRuntimeInfo).toMatchObject({ status: 'StartingFailed', diagnosisReason: 'OOMKilled' })

    const { instanceId } = (await post(emulator.baseUrl, '/instance/create', validCreate(), token)).body
    const before = (await control('/now')).body.now
    expect((await control('/advance', { ms: 4000 })).body.now).toBe(before + 4000)
    const running = (await list()).body.instances.find((i: any) => i.instanceMetadata.instanceId === instanceId)
    expect(running.instanceRuntimeInfo.status).toBe('Running')
  })

  it('preempts, expires tokens and unlocks', async () => {
    const [spot] = (await control('/seed', { username: 'demo', count: 1, isSpotInstance: true })).body.instanceIds
    expect((await control('/preempt', { instanceId: spot })).status).toBe(200)
    expect((await list()).body.instances[0].instanceRuntimeInfo.message).toMatch(/preempted/i)

    expect((await control('/expire-tokens', {})).status).toBe(200)
    expect((await list()).body.code).toBe(-1)

    for (let i = 0; i < 5; i++) await post(emulator.baseUrl, '/user/login', { username: 'demo', password: 'x' })
    expect((await post(emulator.baseUrl, '/user/login', { username: 'demo', password: 'demo' })).status).toBe(429)
    await control('/unlock', { username: 'demo' })
    expect((await post(emulator.baseUrl, '/user/login', { username: 'demo', password: 'demo' })).status).toBe(200)
  })

  it('#26: POST /stock puts a type out of stock and back in one region; the feed and create follow', async () => {
    const h100x8 = 'gpu-h100-sxm-8x'
    const usWest = DEFAULT_CATALOG.regions[0]!.regionId
    const stockIn = async (regionId: string): Promise<string> => {
      const feed = (await post(emulator.baseUrl, '/resource/user/instance/list', {}, token)).body
      const family = feed.instanceInfos.find((f: any) => f.gpuName === 'H100-SXM-80GB' && !f.isSpotInstance)
      const region = family.regionInfos.find((r: any) => r.regionId === regionId)
      return region.instanceTypeInfos.find((t: any) => t.instanceTypeId === h100x8).stockStatus
    }
    const create = () => post(emulator.baseUrl, '/instance/create', validCreate({ instanceTypeId: h100x8, region: usWest }), token)
    // The default catalog has the 8-GPU H100 out of stock in US West.
    expect(await stockIn(usWest)).toBe('OutOfStock')
    expect((await create()).body.message).toMatch(/out of stock/)

    expect((await control('/stock', { instanceTypeId: h100x8, region: usWest, inStock: true })).status).toBe(200)
    expect(await stockIn(usWest)).toBe('InStock')
    expect((await create()).status).toBe(200)

    expect((await control('/stock', { instanceTypeId: h100x8, region: usWest, inStock: false })).status).toBe(200)
    expect(await stockIn(usWest)).toBe('OutOfStock')
    expect((await create()).status).toBe(400)
    // In code too, and a type or region the catalog does not have is named.
    emulator.control.setStock(h100x8, usWest, true)
    expect(await stockIn(usWest)).toBe('InStock')
    expect((await control('/stock', { instanceTypeId: 'gpu-none', region: usWest, inStock: true })).body.message).toMatch(
      /field "instanceTypeId"/
    )
    expect((await control('/stock', { instanceTypeId: h100x8, region: 'nowhere', inStock: true })).body.message).toMatch(/field "region"/)
    expect((await control('/stock', { instanceTypeId: h100x8, region: usWest })).body.message).toMatch(/field "inStock" is not set/)
  })

  it('#26: lose-next with a route loses only that route’s answers, after carrying them out', async () => {
    await control('/faults/lose-next', { count: 1, route: '/instance/create' })
    expect((await list()).status).toBe(200)
    await expect(post(emulator.baseUrl, '/instance/create', validCreate({ name: 'lost' }), token)).rejects.toThrow()
    const names = (await list()).body.instances.map((i: any) => i.instanceSpecInfo.name)
    expect(names).toEqual(['lost'])
    expect((await post(emulator.baseUrl, '/instance/create', validCreate({ name: 'answered' }), token)).status).toBe(200)
  })

  it('injects faults and counts requests', async () => {
    await control('/requests/reset', {})
    await control('/faults/fail-next', { count: 1, status: 500 })
    expect((await list()).status).toBe(500)
    await control('/faults/drop-next', { count: 1 })
    await expect(list()).rejects.toThrow()
    expect((await control('/requests')).body.count).toBe(2)
    expect((await control('/requests?route=/instance/list')).body.count).toBe(2)
    expect((await control('/requests?route=/balance')).body.count).toBe(0)
    await control('/faults/latency', { ms: 0 })
    await control('/faults/reset', {})
    expect((await list()).status).toBe(200)
  })

  it('goes down for forMs and comes back by itself', async () => {
    // Real time (the outage's timer is the process's): long enough that a busy machine's stall
    // before the first request does not outlast it.
    const answer = await control('/faults/down', { down: true, forMs: 1_000 })
    expect(answer.body).toEqual({ ok: true, upAgainInMs: 1_000 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    await expect(list()).rejects.toThrow()
    let status = 0
    for (let attempt = 0; attempt < 200 && status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      status = await list().then(
        (r) => r.status,
        () => 0
      )
    }
    expect(status).toBe(200)
  })

  it('registers SSH keys and refuses what is not a public key', async () => {
    expect(
      (await control('/ssh-keys', { username: 'demo', publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample demo@laptop' })).status
    ).toBe(200)
    const bad = await control('/ssh-keys', { username: 'demo', publicKey: '-----BEGIN OPENSSH PRIVATE KEY-----' })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/public key/)
  })

  it('answers bad control input, unknown routes and wrong methods with JSON', async () => {
    expect((await control('/advance', { ms: -1 })).body.message).toContain('field "ms"')
    expect((await control('/status', { instanceId: 'notebook-x', status: 'Running' })).status).toBe(404)
    expect((await control('/nope')).status).toBe(404)
    expect((await control('/catalog', {})).status).toBe(405)
  })

  it('takes an SFTP fault only by name, for a known instance, and says so without SSH servers', async () => {
    const [instanceId] = (await control('/seed', { username: 'demo', count: 1 })).body.instanceIds
    expect((await control('/faults/sftp', { instanceId, fault: 'melted' })).body.message).toMatch(
      /field "fault" must be one of none, read-only, disk-full/
    )
    expect((await control('/faults/sftp', { instanceId: 'notebook-x', fault: 'read-only' })).status).toBe(404)
    // This emulator runs without reach: nothing serves SFTP, and the answer says what would.
    const refused = await control('/faults/sftp', { instanceId, fault: 'read-only' })
    expect(refused.status).toBe(409)
    expect(refused.body.message).toMatch(/own SSH servers/)
  })

  it('lists its routes at /__emulator/', async () => {
    const routes = (await control('/')).body.routes
    expect(routes).toContain('GET /__emulator/catalog')
    expect(routes).toContain('POST /__emulator/faults/down')
    expect((await control('')).status).toBe(200)
  })

  it('is not faulted, so it stays usable while the API fails', async () => {
    emulator.control.faults.failNext(10)
    expect((await control('/catalog')).status).toBe(200)
  })
})
