/**
 * Issue #12 item 1 over real sockets: the control plane needs its secret, both listeners refuse
 * what a browser page could send them, seeds are bounded, and taking the API down leaves control up.
 */
import { request as httpRequest } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../shared/clock'
import { DEFAULT_CATALOG } from './catalog'
import { MAX_SEED } from './control'
import type { Emulator } from './index'
import { REACHABLE_PER_SEED } from './instances'
import { controlClient, pager, post, recordingReach, validCreate, signedInEmulator } from './testing/http-client'

interface RawAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: any
}

/** One request with exactly these headers (fetch would not let a test set Host). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
        headers: {
          host: target.host,
          ...options.headers,
          ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) })
        }
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) })
        )
      }
    )
    request.on('error', reject)
    request.end(options.body)
  })
}

let emulator: Emulator
let reach: ReturnType<typeof recordingReach>
let token: string

beforeEach(async () => {
  reach = recordingReach()
  ;({ emulator, token } = await signedInEmulator({ clock: new ManualClock(), bootMs: 1000, reach: reach.factory }))
})
afterEach(() => emulator.close())

const list = () => post(emulator.baseUrl, '/instance/list', pager(1, 50), token)
const control = (path: string, body?: unknown) => controlClient(emulator)(path, body)

describe('the control plane needs its secret (#12 item 1)', () => {
  it('#12 item 1: without the secret every control route answers 401 and changes nothing', async () => {
    const [spot] = await emulator.control.seedInstances('demo', 1, { isSpotInstance: true })
    const bodies: Record<string, unknown> = {
      '/status': { instanceId: spot, status: 'StartingFailed' },
      '/preempt': { instanceId: spot },
      '/advance': { ms: 3_600_000 },
      '/faults/latency': { ms: 5000 },
      '/faults/fail-next': { count: 5 },
      '/faults/drop-next': { count: 5 },
      '/faults/lose-next': { count: 5 },
      '/faults/down': { down: true },
      '/expire-tokens': {},
      '/unlock': { username: 'demo' },
      '/seed': { username: 'demo', count: 3 },
      '/ssh-keys': { username: 'demo', publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAttacker attacker@elsewhere' },
      '/gpu': { instanceId: spot, utilization: 90 },
      '/stock': { instanceTypeId: 'gpu-h100-sxm-8x', region: DEFAULT_CATALOG.regions[0]!.regionId, inStock: true }
    }
    // Every route the index lists (asked with the secret), so a route added later is covered too.
    const index = await control('/')
    expect(index.status).toBe(200)
    const routes = (index.body.routes as string[]).map((entry) => entry.split(' ') as [string, string])
    expect(routes.length).toBeGreaterThanOrEqual(18)
    const nowBefore = emulator.control.now()
    emulator.control.resetRequestCount()

    for (const authorization of [
      undefined,
      'Bearer not-the-secret',
      `Bearer ${emulator.controlSecret}x`,
      `Basic ${emulator.controlSecret}`
    ]) {
      for (const [method, path] of routes) {
        const route = path.slice('/__emulator'.length)
        const body = method === 'POST' ? JSON.stringify(bodies[route] ?? {}) : undefined
        const answer = await raw(`${emulator.controlUrl}${route}`, {
          method,
          headers: { ...(authorization ? { authorization } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body } : {})
        })
        expect(answer.status, `${method} ${path} with ${authorization ?? 'no Authorization'}`).toBe(401)
        expect(answer.body.message).toMatch(/control secret/)
        expect(answer.headers['www-authenticate']).toMatch(/^Bearer/)
      }
    }

    // Nothing changed: same instance in the same state, same time, no faults, tokens still good, no key.
    expect(emulator.control.instances().map((i) => [i.instanceMetadata.instanceId, i.instanceRuntimeInfo.status])).toEqual([
      [spot, 'Running']
    ])
    expect(emulator.control.now()).toBe(nowBefore)
    expect(emulator.control.requestCount()).toBe(0)
    expect(reach.context().sshKeysFor('demo')).toEqual([])
    expect(emulator.control.gpus(spot!).map((gpu) => gpu.utilization)).toEqual([0])
    expect(emulator.control.catalog().instanceTypes.find((t) => t.instanceTypeId === 'gpu-h100-sxm-8x')!.outOfStockIn).toEqual([
      DEFAULT_CATALOG.regions[0]!.regionId
    ])
    const answers = [await list(), await list(), await list()]
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    // And with the secret the same requests work (the 401s above were about the secret only).
    expect((await control('/seed', bodies['/seed'])).status).toBe(200)
  })
})

describe('what a browser page could send is refused (#12 item 1)', () => {
  const refusedHeaders: [string, Record<string, string>, number][] = [
    ['a rebound Host name', { host: 'attacker.example' }, 403],
    ['localhost instead of 127.0.0.1', { host: 'localhost' }, 403],
    ['a foreign Origin', { origin: 'http://attacker.example' }, 403],
    ['an opaque Origin', { origin: 'null' }, 403],
    ['another loopback port as Origin', { origin: 'http://127.0.0.1:1' }, 403],
    ['a text/plain body', { 'content-type': 'text/plain;charset=UTF-8' }, 415],
    ['a form body', { 'content-type': 'application/x-www-form-urlencoded' }, 415],
    ['a body without a type', {}, 415]
  ]

  it('#12 item 1: a wrong Host, a foreign Origin or a non-JSON body is refused on /api and /__emulator', async () => {
    const targets: [string, string, Record<string, string>][] = [
      ['/api/user/login', `${emulator.baseUrl}/user/login`, {}],
      ['/api/instance/create', `${emulator.baseUrl}/instance/create`, { cookie: `AccessToken=${token}` }],
      ['/__emulator/seed', `${emulator.controlUrl}/seed`, { authorization: `Bearer ${emulator.controlSecret}` }]
    ]
    const bodies: Record<string, unknown> = {
      '/api/user/login': { username: 'demo', password: 'demo' },
      '/api/instance/create': validCreate({ name: 'from-a-page' }),
      '/__emulator/seed': { username: 'demo', count: 2 }
    }
    for (const [name, url, auth] of targets) {
      for (const [what, headers, status] of refusedHeaders) {
        const port = new URL(url).port
        const sent = {
          'content-type': 'application/json',
          ...auth,
          ...headers,
          ...(headers.host ? { host: `${headers.host}:${port}` } : {})
        }
        if (!('content-type' in headers) && status === 415) delete (sent as Record<string, string>)['content-type']
        const answer = await raw(url, { headers: sent, body: JSON.stringify(bodies[name]) })
        expect(answer.status, `${name}: ${what}`).toBe(status)
        expect(answer.body.message, `${name}: ${what}`).toMatch(/Host|origin|Content-Type/)
        expect(answer.headers['set-cookie'], `${name}: ${what}`).toBeUndefined()
      }
    }
    expect(emulator.control.instances()).toEqual([])

    // The same requests from curl or the app (own Host, no Origin, JSON) go through.
    expect(
      (
        await raw(`${emulator.baseUrl}/instance/create`, {
          headers: { 'content-type': 'application/json', cookie: `AccessToken=${token}` },
          body: JSON.stringify(validCreate())
        })
      ).status
    ).toBe(200)
    expect(emulator.control.instances()).toHaveLength(1)
  })
})

describe('bounded control requests (#12 item 1)', () => {
  it('#12 item 1: a seed makes at most MAX_SEED instances and opens listeners for only the first few', async () => {
    const tooMany = await control('/seed', { username: 'demo', count: MAX_SEED + 1 })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.message).toContain('field "count"')
    await expect(emulator.control.seedInstances('demo', MAX_SEED + 1)).rejects.toThrow(RangeError)
    expect(emulator.control.instances()).toEqual([])

    const seeded = await control('/seed', { username: 'demo', count: 40 })
    expect(seeded.body.instanceIds).toHaveLength(40)
    await new Promise((resolve) => setImmediate(resolve))
    // Each reachable instance is one instanceRunning call: its SSH server and forwarders.
    expect(reach.running.size).toBe(REACHABLE_PER_SEED)
    expect([...reach.running.keys()]).toEqual((seeded.body.instanceIds as string[]).slice(0, REACHABLE_PER_SEED))
    // The rest are listed as Running, and say why they cannot be reached.
    const rest = emulator.control.instances().filter((i) => !reach.running.has(i.instanceMetadata.instanceId))
    expect(rest).toHaveLength(40 - REACHABLE_PER_SEED)
    expect(
      rest.every((i) => i.instanceRuntimeInfo.status === 'Running' && /no SSH or ports/.test(i.instanceRuntimeInfo.message ?? ''))
    ).toBe(true)
    // Stopping one of them never reaches for listeners it never had.
    const events = reach.events.length
    emulator.control.setStatus(rest[0]!.instanceMetadata.instanceId, 'Stopped')
    emulator.control.setStatus(rest[0]!.instanceMetadata.instanceId, 'Running')
    expect(reach.events.length).toBe(events)
  })
})

describe('faults/down (#12 item 1)', () => {
  it('#12 item 1: down without forMs takes the API down and leaves the control plane up to bring it back', async () => {
    const down = await control('/faults/down', { down: true })
    expect(down).toEqual({ status: 200, body: { ok: true } })
    await expect
      .poll(() =>
        list().then(
          (answer) => answer.status,
          () => 'refused'
        )
      )
      .toBe('refused')

    expect((await control('/now')).status).toBe(200)
    expect((await control('/instances')).body.instances).toEqual([])

    expect((await control('/faults/reset', {})).status).toBe(200)
    expect((await list()).status).toBe(200)
  })

  it('#12 item 1: the API port does not serve the control routes', async () => {
    const answer = await raw(`${emulator.baseUrl.replace(/\/api$/, '')}/__emulator/seed`, {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${emulator.controlSecret}` },
      body: JSON.stringify({ username: 'demo', count: 1 })
    })
    expect(answer.status).toBe(404)
    expect(answer.body.message).toContain(emulator.controlUrl)
    expect(emulator.control.instances()).toEqual([])
  })
})
