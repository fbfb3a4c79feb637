/**
 * The client against what the real service does beyond the spec (issue #15): the catalog feed,
 * GET /balance, console API keys, one unreadable list row, and redirects (followed only within
 * the same site, with method, body and credential; refused elsewhere, sending nothing there).
 */
import type { LookupFunction } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import { sharedTestSigningKey, startEmulator, type Emulator } from '../../emulator/index'
import { createCloudClient } from './client'
import { failureOf, json, startHttpFixture, type HttpFixture } from './testing/http-fixture'
import { instance } from './testing/sample-bodies'
import type { CloudClient } from './types'

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJyZWFsIn0.cmVhbC1zZXJ2aWNlLXNlY3JldA'
const KEY = 'ct_console-key-0123456789'

/** Made-up host names on loopback, as hpc-ai.com and www.hpc-ai.com would be. */
const loopback: LookupFunction = ((hostname: string, options: unknown, callback: unknown) => {
  const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void
  const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all
  if (!/(^|\.)cloud\.test$/.test(hostname)) return done(Object.assign(new Error(`unknown host ${hostname}`), { code: 'ENOTFOUND' }))
  if (all) done(null, [{ address: '127.0.0.1', family: 4 }])
  else done(null, '127.0.0.1', 4)
}) as LookupFunction

let clients: CloudClient[] = []
let fixtures: HttpFixture[] = []
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()))
  await Promise.all(fixtures.map((f) => f.close()))
  clients = []
  fixtures = []
})

async function fixture(): Promise<HttpFixture> {
  const started = await startHttpFixture()
  fixtures.push(started)
  return started
}

function client(baseUrl: string, credential: { token?: string; apiKey?: string } = { token: TOKEN }): CloudClient {
  const made = createCloudClient({
    baseUrl,
    token: () => credential.token,
    ...(credential.apiKey ? { apiKey: () => credential.apiKey } : {}),
    lookup: loopback
  })
  clients.push(made)
  return made
}

describe('redirects', () => {
  it('a same-site redirect (cloud.test → www.cloud.test) is followed with the method, the body and the token', async () => {
    const server = await fixture()
    server.answer((request, response) => {
      if (request.headers.host === `cloud.test:${server.port}`) {
        response.writeHead(308, { location: `http://www.cloud.test:${server.port}${request.url}` })
        return response.end()
      }
      json(response, 200, { instanceId: 'notebook-1' })
    })
    const answer = await client(`http://cloud.test:${server.port}/api`).stopInstance('notebook-1')
    expect(answer).toEqual({ instanceId: 'notebook-1' })
    const [first, second] = server.requests
    expect(second).toMatchObject({ method: 'POST', url: '/api/instance/stop', body: first!.body })
    expect(second!.headers.host).toBe(`www.cloud.test:${server.port}`)
    expect(second!.headers.cookie).toBe(`AccessToken=${TOKEN}`)
    expect(JSON.parse(second!.body)).toEqual({ instanceId: 'notebook-1' })
  })

  it.each([301, 302, 307])('HTTP %i keeps POST and its body too', async (status) => {
    const server = await fixture()
    server.answer((request, response) => {
      if (request.url === '/api/instance/list') {
        response.writeHead(status, { location: '/v2/api/instance/list' })
        return response.end()
      }
      json(response, 200, { instances: [], pager: { currentPage: 1, pageSize: 5, totalEntries: 0 } })
    })
    await client(`http://cloud.test:${server.port}/api`).listInstances({ currentPage: 1, pageSize: 5 })
    expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      'POST /api/instance/list {"pager":{"currentPage":1,"pageSize":5}}',
      'POST /v2/api/instance/list {"pager":{"currentPage":1,"pageSize":5}}'
    ])
  })

  it('a redirect to another site is refused, naming the address, and nothing (no token, no key) is sent there', async () => {
    const home = await fixture()
    const elsewhere = await fixture()
    elsewhere.answer((_request, response) => json(response, 200, { instanceId: 'stolen' }))
    home.answer((_request, response) => {
      response.writeHead(307, { location: `http://127.0.0.1:${elsewhere.port}/collect` })
      response.end()
    })
    for (const credential of [{ token: TOKEN }, { apiKey: KEY }]) {
      const error = await failureOf(client(home.baseUrl, credential).stopInstance('notebook-1'))
      expect(error.kind).toBe('unexpected-response')
      expect(error.message).toContain(`http://127.0.0.1:${elsewhere.port}/collect`)
      expect(error.message).toMatch(/another site/)
    }
    expect(elsewhere.requests).toHaveLength(0)
  })

  it('a loop and a redirect without Location end with a clear error', async () => {
    const server = await fixture()
    server.answer((request, response) => {
      if (request.url === '/api/balance') {
        response.writeHead(302)
        return response.end()
      }
      response.writeHead(308, { location: `${request.url}/again` })
      response.end()
    })
    const c = client(server.baseUrl)
    expect((await failureOf(c.stopInstance('x'))).message).toMatch(/again and again/)
    expect((await failureOf(c.balance())).message).toMatch(/without saying where to/)
  })

  describe('against the emulator', () => {
    let emulator: Emulator
    beforeEach(async () => {
      emulator = await startEmulator({ signingKeyPem: await sharedTestSigningKey(), clock: new ManualClock() })
    })
    afterEach(() => emulator.close())

    it('a redirect the emulator answers to another address is refused, and the target hears nothing', async () => {
      const target = await fixture()
      const token = (await client(emulator.baseUrl).login({ username: 'demo', password: 'demo' })).accessToken
      emulator.control.faults.redirectNext(1, 301, `http://127.0.0.1:${target.port}/api/instance/list`)
      const error = await failureOf(client(emulator.baseUrl, { token }).listInstances({ currentPage: 1, pageSize: 5 }))
      expect(error.message).toContain(`http://127.0.0.1:${target.port}/api/instance/list`)
      expect(target.requests).toHaveLength(0)
    })
  })
})

describe('the emulated real service', () => {
  let emulator: Emulator
  beforeEach(async () => {
    emulator = await startEmulator({
      signingKeyPem: await sharedTestSigningKey(),
      clock: new ManualClock(),
      apiKeys: [{ username: 'demo', key: KEY }]
    })
  })
  afterEach(() => emulator.close())

  it('catalog(): offers per type and region, with out of stock, spot, a missing and a null price', async () => {
    const catalog = await client(emulator.baseUrl, { apiKey: KEY }).catalog()
    expect(catalog.skipped).toBe(0)
    const offer = (id: string, region: string) => catalog.offers.find((o) => o.instanceTypeId === id && o.regionName === region)!
    expect(offer('gpu-h100-sxm-8x', 'us-west-1')).toMatchObject({ gpuName: 'H100-SXM-80GB', gpuNum: 8, stock: 'out-of-stock', spot: false })
    expect(offer('gpu-h100-sxm-8x', 'ap-southeast-1')).toMatchObject({ stock: 'in-stock' })
    expect(offer('gpu-h100-sxm-8x', 'ap-southeast-1').prices.perMonth).toBeUndefined()
    expect(offer('gpu-h200-sxm-1x', 'us-west-1').prices.tidePerHour).toBeUndefined()
    expect(offer('gpu-h100-sxm-1x-spot', 'us-west-1')).toMatchObject({
      gpuName: 'H100-SXM-80GB-SPOT',
      spot: true,
      prices: { perHour: 1.25 }
    })
    expect(offer('gpu-a100-80g-1x', 'eu-central-1').prices).toMatchObject({ perHour: 1.79 })
  })

  it('balance(): the four amounts, read with GET', async () => {
    emulator.control.setBalance('demo', { balance: 12.34, voucher: 0, credit: 1 })
    expect(await client(emulator.baseUrl, { apiKey: KEY }).balance()).toEqual({
      balance: 12.34,
      availableBalance: 12.34,
      availableVoucherAmount: 0,
      availableCreditAmount: 1
    })
  })

  it('an API key goes as X-API-Key on every call, with no cookie, even when a token is held', async () => {
    const server = await fixture()
    server.answer((request, response) => {
      if (request.url === '/api/balance') return json(response, 200, { balance: 100, availableVoucherAmount: 5 })
      json(response, 200, { instances: [], pager: { currentPage: 1, pageSize: 5, totalEntries: 0 } })
    })
    const c = client(server.baseUrl, { token: TOKEN, apiKey: KEY })
    await c.listInstances({ currentPage: 1, pageSize: 5 })
    expect(await c.balance()).toEqual({ balance: 100, availableBalance: null, availableVoucherAmount: 5, availableCreditAmount: null })
    await c.login({ username: 'demo', password: 'pw' }).catch(() => undefined)
    const [list, balance, login] = server.requests
    for (const request of [list!, balance!]) {
      expect(request.headers['x-api-key']).toBe(KEY)
      expect(request.headers.cookie).toBeUndefined()
    }
    expect(balance).toMatchObject({ method: 'GET', body: '' })
    expect(balance!.headers['content-type']).toBeUndefined()
    expect(login!.headers['x-api-key']).toBeUndefined()
  })

  it('a refused key is not-logged-in, saying the key was refused and how to make a new one', async () => {
    emulator.control.revokeApiKeys('demo')
    const error = await failureOf(client(emulator.baseUrl, { apiKey: KEY }).listInstances({ currentPage: 1, pageSize: 5 }))
    expect(error.kind).toBe('not-logged-in')
    expect(error.message).toMatch(/refused your API key.*Make a new key in the HPC-AI console/)
    expect(error.message).not.toContain(KEY)
  })

  it('a bare 401 (the real service\'s "User ID mismatch") is not-logged-in too, for a token or a key', async () => {
    const server = await fixture()
    server.answer((_request, response) => json(response, 401, { message: 'User ID mismatch' }))
    expect((await failureOf(client(server.baseUrl).balance())).kind).toBe('not-logged-in')
    expect((await failureOf(client(server.baseUrl, { apiKey: KEY }).balance())).message).toMatch(/API key/)
  })

  it('one malformed row is listed apart, with its id; the rest of the list stands', async () => {
    const server = await fixture()
    const broken = instance('notebook-broken') as any
    delete broken.instanceRuntimeInfo.status
    server.answer((_request, response) =>
      json(response, 200, {
        instances: [instance('a'), broken, { nothing: 1 }, instance('b')],
        pager: { currentPage: 1, pageSize: 50, totalEntries: 4 }
      })
    )
    const listing = await client(server.baseUrl).listAllInstances()
    expect(listing.instances.map((i) => i.instanceMetadata.instanceId)).toEqual(['a', 'b'])
    expect(listing.unreadable).toEqual([
      { instanceId: 'notebook-broken', problem: 'instanceRuntimeInfo.status is missing' },
      { instanceId: null, problem: 'instanceMetadata is missing' }
    ])
  })
})
