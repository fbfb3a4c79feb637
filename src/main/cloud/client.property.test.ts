/**
 * Whatever a server answers, every client call settles with a value or a CloudError: never an
 * untyped throw, never a hang, never the token in the error, and never a value from a non-2xx.
 */
import fc from 'fast-check'
import type { ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLOUD_ERROR_KINDS } from '../../shared/errors'
import { createCloudClient } from './client'
import { isCloudError } from './errors'
import { startHttpFixture, type HttpFixture } from './testing/http-fixture'
import { instance, volume } from './testing/sample-bodies'
import type { CloudClient } from './types'

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwcm9wZXJ0eSJ9.cHJvcGVydHktc2VjcmV0'

type Call = (client: CloudClient) => Promise<unknown>
const CALLS: Record<string, Call> = {
  login: (c) => c.login({ username: 'u', password: 'p' }),
  listInstances: (c) => c.listInstances({ currentPage: 1, pageSize: 10 }),
  listAllInstances: (c) => c.listAllInstances({ pageSize: 10 }),
  createInstance: (c) => c.createInstance({} as never),
  stopInstance: (c) => c.stopInstance('notebook-1'),
  terminateInstance: (c) => c.terminateInstance('notebook-1'),
  createVolume: (c) => c.createVolume({ name: 'v', sizeGB: 1, region: 'r', volumeType: 'filesystem' }),
  listVolumes: (c) => c.listVolumes({ currentPage: 1, pageSize: 10 })
}

/** Bodies near the documented shapes, where classification has the most decisions to make. */
const nearShapes = fc.oneof(
  fc.record({ code: fc.constantFrom(-1, 10008, 0, 500), message: fc.string() }),
  fc.record({ code: fc.constant(10008), message: fc.string(), values: fc.record({ v0: fc.oneof(fc.string(), fc.integer()) }) }),
  fc.record({
    message: fc.oneof(
      fc.string(),
      fc.constantFrom('Volume already exists', 'ent: instance not found', 'field "a.b" is not set', `echo ${TOKEN}`)
    )
  }),
  fc.record({ accessToken: fc.string(), accessExpire: fc.oneof(fc.integer(), fc.string()) }),
  fc.record({ instanceId: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }),
  fc.record({ volume: fc.oneof(fc.constant(volume('v')), fc.jsonValue()) }),
  fc.record({ volumeList: fc.oneof(fc.constant([volume('v')]), fc.array(fc.jsonValue(), { maxLength: 3 })) }),
  fc.record({
    instances: fc.oneof(fc.constant([instance('a'), instance('b')]), fc.array(fc.jsonValue(), { maxLength: 3 })),
    pager: fc.record({
      currentPage: fc.integer(),
      pageSize: fc.integer({ min: -5, max: 20 }),
      totalEntries: fc.integer({ min: -5, max: 60 })
    })
  })
)

const bodyText = fc.oneof(
  nearShapes.map((body) => JSON.stringify(body)),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
  nearShapes.map((body) => JSON.stringify(body)).chain((text) => fc.nat(text.length).map((cut) => text.slice(0, cut)))
)

const answer = fc.record({
  status: fc.oneof(fc.constantFrom(200, 201, 204, 400, 401, 403, 404, 409, 500, 502, 503), fc.integer({ min: 200, max: 599 })),
  body: bodyText,
  delivery: fc.constantFrom('whole', 'whole', 'whole', 'drop', 'short')
})

type Answer = { status: number; body: string; delivery: string }

function deliver(response: ServerResponse, reply: Answer): void {
  if (reply.delivery === 'drop') {
    response.socket?.destroy()
    return
  }
  const bytes = Buffer.from(reply.body)
  // 'short' promises more bytes than it sends, then hangs up mid-body.
  const length = reply.delivery === 'short' ? bytes.length + 10 : bytes.length
  response.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': length })
  if (reply.delivery === 'short') {
    response.write(bytes)
    setImmediate(() => response.socket?.destroy())
  } else {
    response.end(bytes)
  }
}

let server: HttpFixture
let client: CloudClient

beforeAll(async () => {
  server = await startHttpFixture()
  client = createCloudClient({ baseUrl: server.baseUrl, token: () => TOKEN, bodyTimeoutMs: 5000 })
})

afterAll(async () => {
  await client.close()
  await server.close()
})

describe('client under arbitrary answers', () => {
  it('settles with a value or a CloudError, for every call', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(CALLS)), answer, async (name, reply) => {
        server.answer((_request, response) => deliver(response, reply))
        let outcome: { ok: true; value: unknown } | { ok: false; error: unknown }
        try {
          outcome = { ok: true, value: await CALLS[name]!(client) }
        } catch (error) {
          outcome = { ok: false, error }
        }
        if (outcome.ok) {
          expect(reply.delivery).not.toBe('drop')
          expect(reply.status).toBeGreaterThanOrEqual(200)
          expect(reply.status).toBeLessThan(300)
          expect(outcome.value).toBeDefined()
        } else {
          const error = outcome.error
          expect(isCloudError(error)).toBe(true)
          if (!isCloudError(error)) return
          expect(CLOUD_ERROR_KINDS).toContain(error.kind)
          expect(error.message.length).toBeGreaterThan(0)
          expect(JSON.stringify(error.toInfo())).not.toContain(TOKEN)
          expect(error.message).not.toContain(TOKEN)
        }
      }),
      { numRuns: 300 }
    )
  })
})
