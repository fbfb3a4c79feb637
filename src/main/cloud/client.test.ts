import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { generate } from 'selfsigned'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCloudClient } from './client'
import { CloudError } from './errors'
import { REFUSED_PORT } from '../../shared/node/testing/refused-port'
import { failureOf, json, startHttpFixture, type HttpFixture } from './testing/http-fixture'
import { instance, volume } from './testing/sample-bodies'
import { openPoolCount } from './pool'
import type { CloudClient } from './types'

// Looks like a JWT; long enough that redaction applies.
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLXNlY3JldA'

let server: HttpFixture
let client: CloudClient
let token: string | undefined

beforeEach(async () => {
  server = await startHttpFixture()
  token = TOKEN
  client = createCloudClient({ baseUrl: server.baseUrl, token: () => token })
})

afterEach(async () => {
  await client.close()
  await server.close()
})

describe('requests', () => {
  it('posts JSON under the base path, with the token in the AccessToken cookie', async () => {
    server.answer((request, response) => {
      if (request.url === '/api/user/login') return json(response, 200, { accessToken: 'new', accessExpire: 86400 })
      if (request.url === '/api/instance/list')
        return json(response, 200, { instances: [instance('a')], pager: { currentPage: 1, pageSize: 10, totalEntries: 1 } })
      if (request.url === '/api/instance/create') return json(response, 200, { instanceId: 'notebook-1' })
      if (request.url === '/api/instance/stop') return json(response, 200, { instanceId: 'notebook-1' })
      if (request.url === '/api/instance/terminate') return json(response, 200, { instanceId: 'notebook-1' })
      if (request.url === '/api/storage/volume/create') return json(response, 200, { volume: volume('data') })
      if (request.url === '/api/storage/volume/list') return json(response, 200, { volumeList: [volume('data'), volume('more')] })
      json(response, 404, { message: 'unknown path' })
    })

    expect(await client.login({ username: 'demo', password: 'pw' })).toEqual({ accessToken: 'new', accessExpire: 86400 })
    const list = await client.listInstances({ currentPage: 1, pageSize: 10 })
    expect(list.instances[0]?.instanceMetadata.instanceId).toBe('a')
    expect(await client.stopInstance('notebook-1')).toEqual({ instanceId: 'notebook-1' })
    expect(await client.terminateInstance('notebook-1')).toEqual({ instanceId: 'notebook-1' })
    expect((await client.createVolume({ name: 'data', sizeGB: 10, region: 'r1', volumeType: 'filesystem' })).status).toBe('Pending')
    expect((await client.listVolumes({ currentPage: 1, pageSize: 10 })).map((v) => v.volumeName)).toEqual(['data', 'more'])

    const [login, listRequest, stop, terminate, createVolume, listVolumes] = server.requests
    expect(server.requests.every((r) => r.method === 'POST' && r.headers['content-type'] === 'application/json')).toBe(true)
    expect(login?.headers.cookie).toBeUndefined()
    expect(JSON.parse(login?.body ?? '')).toEqual({ username: 'demo', password: 'pw' })
    expect(listRequest?.headers.cookie).toBe(`AccessToken=${TOKEN}`)
    expect(JSON.parse(listRequest?.body ?? '')).toEqual({ pager: { currentPage: 1, pageSize: 10 } })
    expect(JSON.parse(stop?.body ?? '')).toEqual({ instanceId: 'notebook-1' })
    expect(JSON.parse(terminate?.body ?? '')).toEqual({ instanceId: 'notebook-1' })
    expect(JSON.parse(createVolume?.body ?? '')).toEqual({ name: 'data', sizeGB: 10, region: 'r1', volumeType: 'filesystem' })
    expect(JSON.parse(listVolumes?.body ?? '')).toEqual({ pager: { currentPage: 1, pageSize: 10 } })
  })

  it('reads the token at each request, and sends no cookie without one', async () => {
    server.answer((_request, response) => json(response, 200, { instanceId: 'x' }))
    token = undefined
    await client.stopInstance('x')
    token = `${TOKEN}2`
    await client.stopInstance('x')
    expect(server.requests[0]?.headers.cookie).toBeUndefined()
    expect(server.requests[1]?.headers.cookie).toBe(`AccessToken=${TOKEN}2`)
  })

  it('refuses a token that could smuggle another cookie, without sending it', async () => {
    token = 'abc; admin=1'
    const error = await failureOf(client.stopInstance('x'))
    expect(error.kind).toBe('not-logged-in')
    expect(server.requests).toHaveLength(0)
  })

  it('reuses one keep-alive connection, and one pool per address across clients', async () => {
    server.answer((_request, response) => json(response, 200, { instanceId: 'x' }))
    const before = openPoolCount()
    const second = createCloudClient({ baseUrl: `${server.baseUrl}/`, token: () => token })
    expect(openPoolCount()).toBe(before)
    for (let n = 0; n < 5; n++) await client.stopInstance('x')
    await second.stopInstance('x')
    expect(server.requests).toHaveLength(6)
    // undici may open a second socket while the first is finishing its answer; never one per request.
    expect(server.connections()).toBeLessThanOrEqual(2)
    await second.close()
    // The first client still works on the shared pool after the second one closed.
    await client.stopInstance('x')
    expect(openPoolCount()).toBe(before)
  })

  it('rejects calls after close with a typed error', async () => {
    await client.close()
    const error = await failureOf(client.stopInstance('x'))
    expect(error.kind).toBe('network')
  })

  it('rejects an address that is not http(s) with a message saying what to enter', () => {
    for (const baseUrl of ['not a url', 'ftp://example.com/api', 'http://user:pw@example.com/api']) {
      expect(() => createCloudClient({ baseUrl, token: () => undefined })).toThrow(CloudError)
    }
    expect(() => createCloudClient({ baseUrl: 'nope', token: () => undefined })).toThrow(/https:\/\/hpc-ai.com\/api/)
  })
})

describe('the token never leaks', () => {
  it('is scrubbed from a server message that echoes it, in every form of the error', async () => {
    server.answer((request, response) => json(response, 400, { message: `field "name" is not set (you sent ${request.headers.cookie})` }))
    const error = await failureOf(client.createInstance({} as never))
    expect(error.kind).toBe('invalid-request')
    expect(error.field).toBe('name')
    const forms = [error.message, String(error), error.stack ?? '', JSON.stringify(error.toInfo()), JSON.stringify(error)]
    for (const form of forms) expect(form).not.toContain(TOKEN)
    expect(error.message).toContain('[redacted]')
  })

  it('is absent from network errors and their causes', async () => {
    server.answer((request) => request.url.length > 0 && server.close())
    const error = await failureOf(client.listInstances({ currentPage: 1, pageSize: 1 }))
    expect(error.kind).toBe('network')
    expect(`${error.message}${error.stack}${String(error.cause)}`).not.toContain(TOKEN)
  })
})

describe('network failures', () => {
  it('a closed port is network: connection refused', async () => {
    const port = REFUSED_PORT
    const offline = createCloudClient({ baseUrl: `http://127.0.0.1:${port}/api`, token: () => TOKEN })
    const error = await failureOf(offline.listInstances({ currentPage: 1, pageSize: 1 }))
    await offline.close()
    expect(error.kind).toBe('network')
    expect(error.message).toContain(`http://127.0.0.1:${port}`)
    expect(error.message).toMatch(/refused/)
  })

  it('a connection dropped before the answer is network: cut off', async () => {
    server.answer((_request, response) => response.socket?.destroy())
    const error = await failureOf(client.listInstances({ currentPage: 1, pageSize: 1 }))
    expect(error.kind).toBe('network')
    expect(error.message).toMatch(/cut off/)
  })

  it('an answer cut short mid-body is network', async () => {
    server.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
      response.write('{"instances": [')
      setImmediate(() => response.socket?.destroy())
    })
    const error = await failureOf(client.listInstances({ currentPage: 1, pageSize: 1 }))
    expect(error.kind).toBe('network')
  })

  it('a server that never answers is network: timed out (short timeout)', async () => {
    const slow = createCloudClient({ baseUrl: server.baseUrl, token: () => TOKEN, bodyTimeoutMs: 100 })
    server.answer(() => undefined)
    const error = await failureOf(slow.listInstances({ currentPage: 1, pageSize: 1 }))
    await slow.close()
    expect(error.kind).toBe('network')
    expect(error.message).toMatch(/timed out/)
  })

  it('a server that does not speak HTTP is unexpected-response', async () => {
    const raw = createNetServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n')))
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve))
    const port = (raw.address() as AddressInfo).port
    const confused = createCloudClient({ baseUrl: `http://127.0.0.1:${port}/api`, token: () => TOKEN })
    const error = await failureOf(confused.listInstances({ currentPage: 1, pageSize: 1 }))
    await confused.close()
    await new Promise<void>((resolve) => raw.close(() => resolve()))
    expect(error.kind).toBe('unexpected-response')
  })
})

describe('HTTPS with a self-signed certificate', () => {
  it('is refused without ca, and trusted with it', async () => {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }]
    })
    const secure = await startHttpFixture({ tls: { key: pems.private, cert: pems.cert } })
    secure.answer((_request, response) => json(response, 200, { instanceId: 'x' }))
    const untrusting = createCloudClient({ baseUrl: secure.baseUrl, token: () => TOKEN })
    const trusting = createCloudClient({ baseUrl: secure.baseUrl, token: () => TOKEN, ca: pems.cert })
    try {
      const error = await failureOf(untrusting.stopInstance('x'))
      expect(error.kind).toBe('network')
      expect(error.message).toMatch(/certificate is not trusted/)
      expect(await trusting.stopInstance('x')).toEqual({ instanceId: 'x' })
    } finally {
      await untrusting.close()
      await trusting.close()
      await secure.close()
    }
  })
})

describe('the token never leaks, even from login', () => {
  it('scrubs the held token from a login answer that echoes it', async () => {
    const held = createCloudClient({ baseUrl: server.baseUrl, token: () => TOKEN })
    server.answer((_request, response) => json(response, 400, { message: `bad request, you had ${TOKEN}` }))
    const error = await failureOf(held.login({ username: 'u', password: 'p' }))
    await held.close()
    expect(error.message).not.toContain(TOKEN)
    expect(server.requests[0]?.headers.cookie).toBeUndefined()
  })
})
