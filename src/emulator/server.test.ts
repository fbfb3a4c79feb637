import { connect } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sharedTestSigningKey, startEmulator, type Emulator } from './index'
import { MAX_BODY_BYTES } from './server'
import { pager, post, signedInEmulator } from './testing/http-client'

let emulator: Emulator
let token: string

beforeEach(async () => {
  ;({ emulator, token } = await signedInEmulator())
})
afterEach(() => emulator.close())

const origin = () => emulator.baseUrl.replace(/\/api$/, '')

describe('bad requests', () => {
  it('answers an unknown path with 404 JSON', async () => {
    for (const path of ['/api/instance/start', '/api/', '/', '/favicon.ico']) {
      const response = await fetch(`${origin()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      expect(response.status, path).toBe(404)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      expect(((await response.json()) as { message: string }).message).toBeTruthy()
    }
  })

  it('answers other methods than POST with 405', async () => {
    const response = await fetch(`${emulator.baseUrl}/instance/list`)
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST')
  })

  it('explains malformed JSON, an empty body and non-object bodies', async () => {
    for (const [body, pattern] of [
      ['{"pager":', /not valid JSON/],
      ['', /empty/],
      ['[1,2]', /JSON object/],
      ['"text"', /JSON object/],
      ['null', /JSON object/],
      ['42', /JSON object/]
    ] as const) {
      const answer = await post(emulator.baseUrl, '/instance/list', body, token)
      expect(answer.status, body).toBe(400)
      expect(answer.body.message, body).toMatch(pattern)
      expect(answer.body.code).toBeUndefined()
    }
    // Login too, before any auth.
    expect((await post(emulator.baseUrl, '/user/login', 'nope')).body.message).toMatch(/not valid JSON/)
  })

  it('refuses a body over 1 MiB and keeps serving', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES) })
    const answer = await post(emulator.baseUrl, '/instance/create', huge, token)
    expect(answer.status).toBe(413)
    expect(answer.body.message).toMatch(/larger than 1 MiB/)
    expect((await post(emulator.baseUrl, '/instance/list', pager(1, 5), token)).status).toBe(200)
  })

  it('refuses a chunked body that grows over 1 MiB', async () => {
    const chunk = 'x'.repeat(64 * 1024)
    let sent = 0
    const stream = new ReadableStream({
      pull(controller) {
        if (sent > MAX_BODY_BYTES * 2) return controller.close()
        sent += chunk.length
        controller.enqueue(new TextEncoder().encode(chunk))
      }
    })
    const response = await fetch(`${emulator.baseUrl}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half'
    } as RequestInit)
    expect(response.status).toBe(413)
    expect((await post(emulator.baseUrl, '/instance/list', pager(1, 5), token)).status).toBe(200)
  })

  it('answers garbage that is not HTTP with a JSON 400', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(emulator.port, '127.0.0.1', () => socket.write('HELLO\r\n\r\n'))
      let text = ''
      socket.on('data', (data) => (text += data.toString()))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(reply).toMatch(/^HTTP\/1\.1 400/)
    expect(reply).toContain('{"message":')
  })
})

describe('start-up', () => {
  it('explains a port that is already taken', async () => {
    await expect(startEmulator({ port: emulator.port, signingKeyPem: await sharedTestSigningKey() })).rejects.toThrow(
      `port ${emulator.port} on 127.0.0.1 is already in use`
    )
  })
})

describe('faults', () => {
  const list = () => post(emulator.baseUrl, '/instance/list', pager(1, 5), token)

  it('failNext answers the next N with a 5xx JSON message, then recovers', async () => {
    emulator.control.faults.failNext(2, 502)
    const answers = [await list(), await list(), await list()]
    expect(answers.map((answer) => answer.status)).toEqual([502, 502, 200])
    expect(answers[0]!.body.message).toMatch(/temporarily unavailable/)
  })

  it('dropNext destroys the next N sockets without an answer', async () => {
    emulator.control.faults.dropNext(1)
    await expect(list()).rejects.toThrow()
    expect((await list()).status).toBe(200)
  })

  it('setLatency delays every answer', async () => {
    emulator.control.faults.setLatency(150)
    const started = performance.now()
    await list()
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    emulator.control.faults.setLatency(0)
  })

  it('setDown refuses connections and comes back on the same port', async () => {
    await emulator.control.faults.setDown(true)
    await expect(list()).rejects.toThrow()
    await emulator.control.faults.setDown(false)
    expect((await list()).status).toBe(200)
  })

  it('reset clears every fault', async () => {
    emulator.control.faults.failNext(5)
    emulator.control.faults.dropNext(5)
    await emulator.control.faults.setDown(true)
    await emulator.control.faults.reset()
    expect((await list()).status).toBe(200)
  })

  it('counts /api requests, faulted ones included', async () => {
    emulator.control.resetRequestCount()
    emulator.control.faults.failNext(1)
    await list()
    await list()
    await post(emulator.baseUrl, '/nope', {})
    expect(emulator.control.requestCount()).toBe(3)
    expect(emulator.control.requestCount('/instance/list')).toBe(2)
    expect(emulator.control.requestCount('/nope')).toBe(0)
    emulator.control.resetRequestCount()
    expect(emulator.control.requestCount('/instance/list')).toBe(0)
    expect(emulator.control.requestCount()).toBe(0)
  })
})
