/**
 * What the real service does beyond the spec (hpcai-api-facts.md 1.2, 2.8, 2.9, 3.2), as the
 * emulator plays it: the launch form's catalog feed, console API keys, the balance and what
 * instances cost, an image that never pulls, and redirects.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../shared/clock'
import { hourlyRate } from './billing'
import { NEVER_PULLING_IMAGE_ID, sharedTestSigningKey, startEmulator, type Emulator } from './index'
import { REGION_ID, controlClient, login, pager, post, validCreate, signedInEmulator } from './testing/http-client'

let emulator: Emulator
let clock: ManualClock
let token: string

const HOUR = 3_600_000

/** Asks the emulator, as the signed-in user, for a valid create request changed by `over`. */
function createInstance(over: Parameters<typeof validCreate>[0] = {}) {
  return post(emulator.baseUrl, '/instance/create', validCreate(over), token)
}

beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0))
  ;({ emulator, token } = await signedInEmulator({
    clock,
    bootMs: 10_000,
    users: [
      { username: 'demo', password: 'demo' },
      { username: 'ada', password: 'lovelace' }
    ],
    apiKeys: [{ username: 'ada', key: 'ada-console-key-1' }]
  }))
})
afterEach(() => emulator.close())

/** A request with the API key header instead of the cookie. */
async function withKey(path: string, key: string, body?: unknown, method = 'POST'): Promise<{ status: number; body: any }> {
  const response = await fetch(`${emulator.baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() }
}

async function getBalance(as = token): Promise<{ status: number; body: any }> {
  const response = await fetch(`${emulator.baseUrl}/balance`, { headers: { cookie: `AccessToken=${as}` } })
  return { status: response.status, body: await response.json() }
}

describe('the catalog feed: POST /resource/user/instance/list', () => {
  it('groups types by GPU family, per region, with stock, spot families and every price entry the catalog names', async () => {
    const answer = await post(emulator.baseUrl, '/resource/user/instance/list', {}, token)
    expect(answer.status).toBe(200)
    const families = answer.body.instanceInfos as any[]
    const family = (name: string) => families.find((f) => f.gpuName === name)
    const offer = (name: string, regionName: string, typeId: string) =>
      family(name)
        .regionInfos.find((r: any) => r.regionName === regionName)
        .instanceTypeInfos.find((t: any) => t.instanceTypeId === typeId)

    // Two H100 sizes in one family; the 8-GPU one is out of stock in us-west-1 only.
    expect(family('H100-SXM-80GB').isSpotInstance).toBe(false)
    expect(offer('H100-SXM-80GB', 'us-west-1', 'gpu-h100-sxm-8x')).toMatchObject({ gpuNum: 8, stockStatus: 'OutOfStock' })
    expect(offer('H100-SXM-80GB', 'ap-southeast-1', 'gpu-h100-sxm-8x')).toMatchObject({ stockStatus: 'InStock' })
    expect(family('H100-SXM-80GB').regionInfos[0].regionId).toMatch(/^[0-9a-f-]{36}$/)
    // Spot capacity is a family of its own, named …-SPOT, hourly only.
    expect(family('H100-SXM-80GB-SPOT')).toMatchObject({ isSpotInstance: true })
    expect(offer('H100-SXM-80GB-SPOT', 'us-west-1', 'gpu-h100-sxm-1x-spot').price.map((p: any) => p.chargeMode)).toEqual([
      'perHour',
      'tidePerHour'
    ])
    // One price entry left out (H200 tide), one sent as null (8-GPU H100 monthly).
    expect(offer('H200-SXM-141GB', 'us-west-1', 'gpu-h200-sxm-1x').price.map((p: any) => p.chargeMode)).not.toContain('tidePerHour')
    expect(offer('H100-SXM-80GB', 'ap-southeast-1', 'gpu-h100-sxm-8x').price).toContainEqual({ chargeMode: 'perMonth', price: null })
    expect(offer('H100-SXM-80GB', 'ap-southeast-1', 'gpu-h100-sxm-1x').price).toContainEqual({ chargeMode: 'perHour', price: 2.49 })
    // CPU-only types have an empty GPU name.
    expect(offer('', 'us-west-1', 'cpu-8c-32g')).toMatchObject({ gpuNum: 0, stockStatus: 'InStock' })
  })

  it('refuses to create what the feed shows out of stock or without a price', async () => {
    const outOfStock = await createInstance({ instanceTypeId: 'gpu-h100-sxm-8x', region: REGION_ID })
    expect(outOfStock).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^field "instanceTypeId": .*out of stock in us-west-1/) }
    })
    const nullPrice = await createInstance({
      instanceTypeId: 'gpu-h100-sxm-8x',
      region: '0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b',
      billing: { chargeMode: 'perMonth', duration: 1 }
    })
    expect(nullPrice).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^field "billing.chargeMode"/) } })
    const missing = await createInstance({ instanceTypeId: 'gpu-h200-sxm-1x', billing: { chargeMode: 'tidePerHour', duration: 1 } })
    expect(missing.status).toBe(400)
  })

  it('makes every instance of a spot type a spot instance', async () => {
    const created = await createInstance({ instanceTypeId: 'gpu-rtx4090-1x-spot', isSpotInstance: false })
    expect(created.status).toBe(200)
    const [instance] = emulator.control.instances('demo')
    expect(instance!.instanceSpecInfo.isSpotInstance).toBe(true)
    expect(instance!.instanceSpecInfo.instanceBillingInfo).toMatchObject({ price: 0.25, type: 'Spot' })
  })
})

describe('console API keys: X-API-Key', () => {
  it('are accepted on every /api route but login, as the key owner, with no cookie', async () => {
    const created = await withKey('/instance/create', 'ada-console-key-1', validCreate({ name: 'by-key' }))
    expect(created.status).toBe(200)
    const listed = await withKey('/instance/list', 'ada-console-key-1', pager(1, 10))
    expect(listed.body.instances.map((i: any) => i.instanceMetadata.instanceAuth.ownerUserName)).toEqual(['ada'])
    expect((await withKey('/resource/user/instance/list', 'ada-console-key-1', {})).status).toBe(200)
    expect((await withKey('/balance', 'ada-console-key-1', undefined, 'GET')).status).toBe(200)
    // Login takes a user name and password, never a key.
    expect((await withKey('/user/login', 'ada-console-key-1', {})).status).toBe(400)
  })

  it('are made by the control plane for a user, and refused with 401 once revoked or when unknown', async () => {
    const control = controlClient(emulator)
    const made = await control('/api-keys', { username: 'demo' })
    expect(made.status).toBe(200)
    const key = made.body.key as string
    expect((await withKey('/instance/list', key, pager(1, 10))).status).toBe(200)
    expect((await control('/api-keys', { username: 'nobody' })).status).toBe(400)

    expect(await control('/api-keys/revoke', { username: 'demo' })).toMatchObject({ status: 200, body: { revoked: 1 } })
    const refused = await withKey('/instance/list', key, pager(1, 10))
    expect(refused).toMatchObject({ status: 401, body: { code: -1, message: expect.stringMatching(/API key/) } })
    expect((await withKey('/instance/list', 'not-a-key-at-all', pager(1, 10))).status).toBe(401)
    // Ada's key is untouched.
    expect((await withKey('/instance/list', 'ada-console-key-1', pager(1, 10))).status).toBe(200)
  })

  it('a refused key is not rescued by a valid cookie', async () => {
    const response = await fetch(`${emulator.baseUrl}/instance/list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'wrong-key-123', cookie: `AccessToken=${token}` },
      body: JSON.stringify(pager(1, 10))
    })
    expect(response.status).toBe(401)
  })

  it('survive a restart of a persisted emulator, stored only as hashes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'emu-keys-'))
    const statePath = join(dir, 'state.json')
    try {
      const first = await startEmulator({ signingKeyPem: await sharedTestSigningKey(), statePath, clock })
      const key = first.control.createApiKey('demo')
      first.control.setBalance('demo', { balance: 42 })
      await first.close()
      const { readFile } = await import('node:fs/promises')
      expect(await readFile(statePath, 'utf8')).not.toContain(key)
      const second = await startEmulator({ signingKeyPem: await sharedTestSigningKey(), statePath, clock })
      const listed = await fetch(`${second.baseUrl}/instance/list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(pager(1, 10))
      })
      expect(listed.status).toBe(200)
      expect(second.control.balance('demo').balance).toBe(42)
      await second.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('GET /balance', () => {
  it('answers the four amounts, 401 without a login, and only answers GET', async () => {
    expect(await getBalance()).toEqual({
      status: 200,
      body: { balance: 100, availableBalance: 100, availableVoucherAmount: 5, availableCreditAmount: 0 }
    })
    const anonymous = await fetch(`${emulator.baseUrl}/balance`)
    expect(anonymous.status).toBe(401)
    expect((await post(emulator.baseUrl, '/balance', {}, token)).status).toBe(405)
  })

  it('is set per user by the control plane', async () => {
    expect((await controlClient(emulator)('/balance', { username: 'demo', balance: 12.5, voucher: 0 })).status).toBe(200)
    expect((await getBalance()).body).toMatchObject({ balance: 12.5, availableBalance: 12.5, availableVoucherAmount: 0 })
    expect((await getBalance(await login(emulator.baseUrl, 'ada', 'lovelace'))).body.balance).toBe(100)
  })

  it('falls as instances run at their price in emulator time, vouchers first, and stops falling once they stop', async () => {
    emulator.control.setBalance('demo', { balance: 50, voucher: 1, credit: 0 })
    // A100 hourly: $1.79 an hour.
    await createInstance({ instanceTypeId: 'gpu-a100-80g-1x' })
    emulator.control.advance(2 * HOUR)
    expect((await getBalance()).body).toMatchObject({ availableVoucherAmount: 0, balance: 50 - (2 * 1.79 - 1) })
    const [instance] = emulator.control.instances('demo')
    await post(emulator.baseUrl, '/instance/stop', { instanceId: instance!.instanceMetadata.instanceId }, token)
    emulator.control.advance(10 * HOUR)
    const afterStop = (await getBalance()).body.balance
    // The stop took a quarter of the boot time (2.5 s) to complete, billed too; then nothing.
    expect(afterStop).toBeCloseTo(50 - (2 * 1.79 - 1) - (1.79 * 2.5) / 3600, 2)
    emulator.control.advance(5 * HOUR)
    expect((await getBalance()).body.balance).toBe(afterStop)
    expect(emulator.control.balance('demo').charged[instance!.instanceMetadata.instanceId]).toBeCloseTo(2 * 1.79 + (1.79 * 2.5) / 3600, 6)
  })

  it('spreads a day, week or month plan over its hours', () => {
    expect(hourlyRate({ chargeMode: 'perHour', price: 2 })).toBe(2)
    expect(hourlyRate({ chargeMode: 'perDay', price: 48 })).toBe(2)
    expect(hourlyRate({ chargeMode: 'perWeek', price: 168 })).toBe(1)
    expect(hourlyRate({ chargeMode: 'perMonth', price: 720 })).toBe(1)
    expect(hourlyRate({ chargeMode: 'perYear', price: 720 })).toBe(0)
  })
})

describe('an image that never pulls', () => {
  it('stays Starting in the download phase with BackOff, never Running or failed', async () => {
    const created = await createInstance({ imageId: NEVER_PULLING_IMAGE_ID })
    expect(created.status).toBe(200)
    emulator.control.advance(10_000)
    emulator.control.advance(24 * HOUR)
    const runtime = emulator.control.instances('demo')[0]!.instanceRuntimeInfo
    expect(runtime).toMatchObject({
      status: 'Starting',
      phase: 'DownloadImage',
      diagnosisReason: 'BackOff',
      diagnosisMessage: 'Back-off restarting failed container download-image'
    })
  })
})

describe('redirects', () => {
  it('answer the next requests with the status and Location asked for, without carrying them out', async () => {
    emulator.control.faults.redirectNext(1, 308, 'https://www.example.test/api/instance/create')
    const response = await fetch(`${emulator.baseUrl}/instance/create`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', cookie: `AccessToken=${token}` },
      body: JSON.stringify(validCreate())
    })
    expect(response.status).toBe(308)
    expect(response.headers.get('location')).toBe('https://www.example.test/api/instance/create')
    expect(emulator.control.instances('demo')).toHaveLength(0)
    expect((await createInstance()).status).toBe(200)
    expect(() => emulator.control.faults.redirectNext(1, 303, '/x')).toThrow(/301, 302, 307 or 308/)
  })
})
