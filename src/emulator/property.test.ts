/**
 * Whatever a client sends to whichever endpoint, the emulator answers JSON — with a `message`
 * when it refuses — and keeps serving.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../shared/clock'
import type { Emulator } from './index'
import { login, validCreate, signedInEmulator } from './testing/http-client'

const ENDPOINTS = [
  '/user/login',
  '/instance/create',
  '/instance/list',
  '/instance/stop',
  '/instance/terminate',
  '/storage/volume/create',
  '/storage/volume/list'
]

let emulator: Emulator
let token: string

beforeAll(async () => {
  ;({ emulator, token } = await signedInEmulator({ clock: new ManualClock(), lockoutMs: 0 }))
})
afterAll(() => emulator.close())

const json = fc.jsonValue({ maxDepth: 3 })
/** Bodies shaped like the real requests, with any value in any field: reaches the deep checks. */
const nearlyValid = fc
  .record(
    {
      field: fc.constantFrom(...Object.keys(validCreate()), 'username', 'password', 'pager', 'instanceId', 'sizeGB', 'volumeType'),
      value: json
    },
    { requiredKeys: ['field', 'value'] }
  )
  .map(({ field, value }) =>
    JSON.stringify({ ...validCreate(), username: 'demo', password: 'x', pager: { currentPage: 1, pageSize: 5 }, [field]: value })
  )
const body = fc.oneof(
  json.map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  nearlyValid
)

describe('any body on any endpoint', () => {
  it('gets a JSON answer, with a message when refused, and the emulator keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), body, fc.boolean(), async (endpoint, text, withToken) => {
        const response = await fetch(`${emulator.baseUrl}${endpoint}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(withToken ? { cookie: `AccessToken=${token}` } : {}) },
          body: text
        })
        expect(response.headers.get('content-type')).toMatch(/^application\/json/)
        const answer = (await response.json()) as Record<string, unknown>
        expect(typeof answer).toBe('object')
        if (response.status >= 400) {
          expect(typeof answer.message).toBe('string')
          expect((answer.message as string).length).toBeGreaterThan(0)
        } else {
          expect(response.status).toBe(200)
        }
      }),
      { numRuns: 300 }
    )
    // Still serving, and still right.
    const fresh = await login(emulator.baseUrl)
    const listed = await fetch(`${emulator.baseUrl}/instance/list`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `AccessToken=${fresh}` },
      body: JSON.stringify({ pager: { currentPage: 1, pageSize: 1 } })
    })
    expect(listed.status).toBe(200)
  })
})
