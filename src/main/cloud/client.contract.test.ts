/**
 * The client against a live emulator (src/emulator) over real sockets: every endpoint's success
 * and every error kind the emulator can produce, token expiry, lockout, and concurrent paging.
 * Emulator time moves by control.advance; nothing here sleeps through real time.
 */
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CreateInstanceRequest } from '../../shared/create-request'
import { startEmulator, type Emulator } from '../../emulator'
import { createRequest as createRequestFor } from '../testing/core-harness'
import { createCloudClient } from './client'
import { failureOf } from './testing/http-fixture'
import type { CloudClient } from './types'

const LOCKOUT_MS = 15 * 60_000
const TOKEN_TTL_SECONDS = 3600

let emulator: Emulator
let token: string | undefined
let client: CloudClient

async function logIn(username = 'demo', password = 'demo'): Promise<string> {
  const result = await client.login({ username, password })
  token = result.accessToken
  return result.accessToken
}

/** A valid create for the emulator's default catalogue, forwarding one port. */
function createRequest(): CreateInstanceRequest {
  return createRequestFor(emulator, 'trainer', { nodePorts: [8888] })
}

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    bootMs: 1000,
    lockoutMs: LOCKOUT_MS,
    tokenTtlSeconds: TOKEN_TTL_SECONDS,
    volumeReadyMs: 500,
    users: [
      { username: 'demo', password: 'demo' },
      { username: 'other', password: 'other-pw' },
      { username: 'locky', password: 'right' }
    ]
  })
})

afterAll(async () => {
  await emulator.close()
})

beforeEach(async () => {
  token = undefined
  client = createCloudClient({ baseUrl: emulator.baseUrl, token: () => token })
  await emulator.control.faults.reset()
})

afterEach(async () => {
  await client.close()
})

describe('login', () => {
  it('returns a JWT that the other endpoints accept', async () => {
    const result = await client.login({ username: 'demo', password: 'demo', rememberMe: true })
    expect(result.accessToken.split('.')).toHaveLength(3)
    expect(result.accessExpire).toBe(TOKEN_TTL_SECONDS)
    token = result.accessToken
    await expect(client.listInstances({ currentPage: 1, pageSize: 10 })).resolves.toBeDefined()
  })

  it('counts retries down on a wrong password, then locks until a time it states', async () => {
    for (const expected of [4, 3, 2, 1]) {
      const error = await failureOf(client.login({ username: 'locky', password: 'wrong' }))
      expect(error.kind).toBe('bad-credentials')
      expect(error.retriesLeft).toBe(expected)
      expect(error.lockedUntil).toBeUndefined()
    }
    const locking = await failureOf(client.login({ username: 'locky', password: 'wrong' }))
    expect(locking.kind).toBe('bad-credentials')
    expect(locking.retriesLeft).toBe(0)
    const expectedUnlock = emulator.control.now() + LOCKOUT_MS
    expect(Math.abs((locking.lockedUntil ?? 0) - expectedUnlock)).toBeLessThan(5_000)
    expect(locking.message).toMatch(/locked/)

    // Even the right password is refused while locked.
    const stillLocked = await failureOf(client.login({ username: 'locky', password: 'right' }))
    expect(stillLocked.kind).toBe('bad-credentials')
    expect(stillLocked.lockedUntil).toBe(locking.lockedUntil)

    emulator.control.advance(LOCKOUT_MS + 1000)
    await expect(client.login({ username: 'locky', password: 'right' })).resolves.toHaveProperty('accessToken')
  })
})

describe('not logged in', () => {
  it('without a token, every authenticated endpoint says not-logged-in', async () => {
    const calls = [
      client.listInstances({ currentPage: 1, pageSize: 1 }),
      client.listAllInstances(),
      client.createInstance(createRequest()),
      client.stopInstance('notebook-x'),
      client.terminateInstance('notebook-x'),
      client.createVolume({ name: 'v', sizeGB: 1, region: 'r', volumeType: 'filesystem' }),
      client.listVolumes({ currentPage: 1, pageSize: 1 })
    ]
    for (const call of calls) expect((await failureOf(call)).kind).toBe('not-logged-in')
  })

  it('when the tokens are expired by the service', async () => {
    await logIn()
    await client.listInstances({ currentPage: 1, pageSize: 1 })
    emulator.control.expireTokens('demo')
    const error = await failureOf(client.listInstances({ currentPage: 1, pageSize: 1 }))
    expect(error.kind).toBe('not-logged-in')
    expect(error.message).toMatch(/log in again/i)
    expect(error.message).not.toContain(token!)
  })

  it('when the token outlives its exp', async () => {
    await logIn()
    emulator.control.advance(TOKEN_TTL_SECONDS * 1000 + 1000)
    expect((await failureOf(client.listVolumes({ currentPage: 1, pageSize: 1 }))).kind).toBe('not-logged-in')
    // A new login is picked up without a new client.
    await logIn()
    await expect(client.listVolumes({ currentPage: 1, pageSize: 1 })).resolves.toBeDefined()
  })
})

describe('instances', () => {
  beforeEach(async () => {
    await logIn('other', 'other-pw')
    for (const instance of emulator.control.instances('other')) {
      await client.terminateInstance(instance.instanceMetadata.instanceId)
    }
  })

  it('creates, lists, stops and terminates', async () => {
    const { instanceId } = await client.createInstance(createRequest())
    expect(instanceId).toMatch(/^notebook-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)

    // Each boot step schedules the next: advance step by step (bounded) until it runs.
    for (let step = 0; step < 10 && emulator.control.instances('other')[0]?.instanceRuntimeInfo.status !== 'Running'; step++) {
      emulator.control.advance(500)
    }
    const listed = await client.listInstances({ currentPage: 1, pageSize: 10 })
    expect(listed.pager).toEqual({ currentPage: 1, pageSize: 10, totalEntries: 1 })
    const created = listed.instances[0]!
    expect(created.instanceMetadata.instanceId).toBe(instanceId)
    expect(created.instanceRuntimeInfo.status).toBe('Running')
    expect(created.instanceSpecInfo.nodePorts.map((entry) => entry.port)).toEqual(expect.arrayContaining([22, 8888]))

    expect(await client.stopInstance(instanceId)).toEqual({ instanceId })
    const again = await failureOf(client.stopInstance(instanceId))
    expect(again.kind).toBe('invalid-request')
    expect(again.message).toMatch(/already stopp/)

    expect(await client.terminateInstance(instanceId)).toEqual({ instanceId })
    expect((await client.listInstances({ currentPage: 1, pageSize: 10 })).instances).toEqual([])
  })

  it('an unknown instance is not-found for stop and terminate', async () => {
    const stop = await failureOf(client.stopInstance('notebook-00000000-0000-4000-8000-000000000000'))
    expect(stop.kind).toBe('not-found')
    const terminate = await failureOf(client.terminateInstance('notebook-00000000-0000-4000-8000-000000000000'))
    expect(terminate.kind).toBe('not-found')
  })

  it('a missing instanceConfiguration.enableDocker is invalid-request naming that field', async () => {
    const request = createRequest()
    const { enableDocker: _omitted, ...configuration } = request.instanceConfiguration
    const error = await failureOf(client.createInstance({ ...request, instanceConfiguration: configuration } as CreateInstanceRequest))
    expect(error.kind).toBe('invalid-request')
    expect(error.field).toBe('instanceConfiguration.enableDocker')
    expect(error.toInfo()).toMatchObject({ kind: 'invalid-request', field: 'instanceConfiguration.enableDocker' })
  })

  it.each([
    ['an unknown image', { imageId: 'no-such-image' }, 'imageId'],
    ['an unknown region', { region: 'no-such-region' }, 'region'],
    ['hourly billing for 3 hours', { billing: { chargeMode: 'perHour', duration: 3 } }, 'billing.duration'],
    ['a node port out of range', { nodePorts: [70000] }, 'nodePorts.0']
  ])('%s is invalid-request naming the field', async (_what, change, field) => {
    const error = await failureOf(client.createInstance({ ...createRequest(), ...change } as CreateInstanceRequest))
    expect(error.kind).toBe('invalid-request')
    expect(error.field).toBe(field)
  })

  it('lists every page of many instances, newest first, with pages after the first in parallel', async () => {
    const ids = await emulator.control.seedInstances('other', 23)
    const expected = emulator.control.instances('other').map((instance) => instance.instanceMetadata.instanceId)
    expect(new Set(expected)).toEqual(new Set(ids))

    const proxy = await startCountingProxy(emulator.port)
    const viaProxy = createCloudClient({ baseUrl: `http://127.0.0.1:${proxy.port}/api`, token: () => token })
    emulator.control.faults.setLatency(40)
    emulator.control.resetRequestCount()
    try {
      const all = (await viaProxy.listAllInstances({ pageSize: 5 })).instances
      expect(all.map((instance) => instance.instanceMetadata.instanceId)).toEqual(expected)
      expect(emulator.control.requestCount()).toBe(5)
      // Page 1 alone, then pages 2–5 together: four requests were in the service at once.
      expect(proxy.maxInFlight()).toBe(4)

      // The next walk (a poller's next poll) knows the total: page 1 goes out with pages 2–4.
      proxy.resetMaxInFlight()
      emulator.control.resetRequestCount()
      const again = (await viaProxy.listAllInstances({ pageSize: 5 })).instances
      expect(again.map((instance) => instance.instanceMetadata.instanceId)).toEqual(expected)
      expect(emulator.control.requestCount()).toBe(5)
      expect(proxy.firstWave()).toEqual([1, 2, 3, 4])
    } finally {
      emulator.control.faults.setLatency(0)
      await viaProxy.close()
      await proxy.close()
    }
  })
})

describe('volumes', () => {
  beforeEach(async () => {
    await logIn()
  })

  it('creates a Pending volume that becomes Available, lists it, and refuses the same name twice', async () => {
    const region = emulator.control.catalog().regions[0]!.regionId
    const name = `data-${Date.now()}`
    const volume = await client.createVolume({ name, sizeGB: 20, region, volumeType: 'filesystem' })
    expect(volume).toMatchObject({ volumeName: name, sizeGB: 20, usageGB: 0, status: 'Pending', region, username: 'demo' })

    const duplicate = await failureOf(client.createVolume({ name, sizeGB: 5, region, volumeType: 'filesystem' }))
    expect(duplicate.kind).toBe('already-exists')
    expect(duplicate.field).toBe('name')

    emulator.control.advance(1000)
    const listed = await client.listVolumes({ currentPage: 1, pageSize: 100 })
    expect(listed.find((entry) => entry.id === volume.id)?.status).toBe('Available')
  })

  it('an unknown region is invalid-request naming the field', async () => {
    const error = await failureOf(client.createVolume({ name: 'x', sizeGB: 1, region: 'nowhere', volumeType: 'filesystem' }))
    expect(error.kind).toBe('invalid-request')
    expect(error.field).toBe('region')
  })
})

describe('faults', () => {
  beforeEach(async () => {
    await logIn()
  })

  it('a failing service is server, with its status', async () => {
    emulator.control.faults.failNext(1, 502)
    const error = await failureOf(client.listInstances({ currentPage: 1, pageSize: 1 }))
    expect(error.kind).toBe('server')
    expect(error.status).toBe(502)
    await expect(client.listInstances({ currentPage: 1, pageSize: 1 })).resolves.toBeDefined()
  })

  it('a dropped connection is network', async () => {
    emulator.control.faults.dropNext(1)
    const error = await failureOf(client.listInstances({ currentPage: 1, pageSize: 1 }))
    expect(error.kind).toBe('network')
    await expect(client.listInstances({ currentPage: 1, pageSize: 1 })).resolves.toBeDefined()
  })

  it('a service that is down is network (connection refused), and recovers', async () => {
    await emulator.control.faults.setDown(true)
    try {
      const error = await failureOf(client.listInstances({ currentPage: 1, pageSize: 1 }))
      expect(error.kind).toBe('network')
      expect(error.message).toContain(new URL(emulator.baseUrl).origin)
    } finally {
      await emulator.control.faults.setDown(false)
    }
    await expect(client.listInstances({ currentPage: 1, pageSize: 1 })).resolves.toBeDefined()
  })

  it("one failing page fails listAllInstances with that page's error", async () => {
    await emulator.control.seedInstances('demo', 12)
    emulator.control.faults.failNext(1, 503)
    const error = await failureOf(client.listAllInstances({ pageSize: 5 }))
    expect(error.kind).toBe('server')
  })
})

/** An HTTP pass-through in front of the emulator that records how many requests it holds at once. */
async function startCountingProxy(targetPort: number): Promise<{
  port: number
  maxInFlight(): number
  /** Pages requested before the first answer came back, sorted. */
  firstWave(): number[]
  resetMaxInFlight(): void
  close(): Promise<void>
}> {
  let inFlight = 0
  let maxInFlight = 0
  let answered = false
  let wave: number[] = []
  const server: Server = createServer((incoming, outgoing) => {
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      if (answered) return
      try {
        const page = (JSON.parse(Buffer.concat(chunks).toString()) as { pager?: { currentPage?: number } }).pager?.currentPage
        if (typeof page === 'number') wave.push(page)
      } catch {
        // Not a list request: not part of any wave.
      }
    })
    const upstream = httpRequest(
      // As any reverse proxy must: the emulator answers only requests addressed to itself (#12 item 1).
      {
        host: '127.0.0.1',
        port: targetPort,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: `127.0.0.1:${targetPort}` }
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
        answer.on('end', () => {
          inFlight--
          answered = true
        })
      }
    )
    upstream.on('error', () => {
      inFlight--
      outgoing.destroy()
    })
    incoming.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    maxInFlight: () => maxInFlight,
    firstWave: () => [...wave].sort((a, b) => a - b),
    resetMaxInFlight() {
      maxInFlight = 0
      answered = false
      wave = []
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
