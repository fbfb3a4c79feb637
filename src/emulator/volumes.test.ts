import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { VolumeSchema } from '../shared/api'
import { ManualClock } from '../shared/clock'
import type { Emulator } from './index'
import { REGION_ID, login, pager, post, signedInEmulator } from './testing/http-client'

let emulator: Emulator
let token: string

beforeEach(async () => {
  ;({ emulator, token } = await signedInEmulator({
    clock: new ManualClock(),
    volumeReadyMs: 3000,
    users: [
      { username: 'demo', password: 'demo' },
      { username: 'ada', password: 'lovelace' }
    ]
  }))
})
afterEach(() => emulator.close())

const volume = (overrides: Record<string, unknown> = {}) => ({
  name: 'datasets',
  sizeGB: 500,
  region: REGION_ID,
  volumeType: 'filesystem',
  ...overrides
})
const createVolume = (body: unknown, as = token) => post(emulator.baseUrl, '/storage/volume/create', body, as)
const listVolumes = (as = token, page = 1, size = 50) => post(emulator.baseUrl, '/storage/volume/list', pager(page, size), as)

describe('volumes', () => {
  it('creates Pending with usageGB 0, then becomes Available after volumeReadyMs', async () => {
    const answer = await createVolume(volume())
    expect(answer.status).toBe(200)
    expect(VolumeSchema.parse(answer.body.volume)).toEqual(answer.body.volume)
    expect(answer.body.volume).toMatchObject({
      volumeName: 'datasets',
      sizeGB: 500,
      region: REGION_ID,
      volumeType: 'filesystem',
      usageGB: 0,
      status: 'Pending',
      username: 'demo'
    })
    expect(answer.body.volume.id).toMatch(/^[0-9a-f-]{36}$/)
    emulator.control.advance(2999)
    expect((await listVolumes()).body.volumeList[0].status).toBe('Pending')
    emulator.control.advance(1)
    expect((await listVolumes()).body).toEqual({ volumeList: [{ ...answer.body.volume, status: 'Available' }] })
  })

  it('refuses the same name twice for one user, not across users', async () => {
    await createVolume(volume())
    expect(await createVolume(volume({ sizeGB: 10 }))).toEqual({ status: 409, body: { message: 'Volume already exists' } })
    const ada = await login(emulator.baseUrl, 'ada', 'lovelace')
    expect((await createVolume(volume(), ada)).status).toBe(200)
  })

  it('takes any volume type but validates the rest by field', async () => {
    expect((await createVolume(volume({ volumeType: 'highspeedstorage' }))).status).toBe(200)
    expect((await createVolume(volume({ name: 'objects', volumeType: 'object-store' }))).status).toBe(200)
    for (const [body, field] of [
      [{ sizeGB: 1 }, 'name'],
      [volume({ sizeGB: undefined }), 'sizeGB'],
      [volume({ sizeGB: 0 }), 'sizeGB'],
      [volume({ sizeGB: 'big' }), 'sizeGB'],
      [volume({ region: 'nowhere' }), 'region'],
      [volume({ volumeType: '' }), 'volumeType']
    ] as const) {
      const answer = await createVolume(body)
      expect(answer.status).toBe(400)
      expect(answer.body.message).toContain(`field "${field}"`)
    }
  })

  it("lists only the caller's volumes, newest first, one page at a time; the pager is required", async () => {
    for (const name of ['a', 'b', 'c']) await createVolume(volume({ name }))
    const ada = await login(emulator.baseUrl, 'ada', 'lovelace')
    await createVolume(volume({ name: 'ada-only' }), ada)
    expect((await listVolumes(token, 1, 2)).body.volumeList.map((v: any) => v.volumeName)).toEqual(['c', 'b'])
    expect((await listVolumes(token, 2, 2)).body.volumeList.map((v: any) => v.volumeName)).toEqual(['a'])
    const missing = await post(emulator.baseUrl, '/storage/volume/list', {}, token)
    expect(missing).toEqual({ status: 400, body: { message: 'field "pager" is not set' } })
    expect((await post(emulator.baseUrl, '/storage/volume/list', pager(1, 5))).body.code).toBe(-1)
  })
})
