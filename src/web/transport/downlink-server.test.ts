import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { DOWNLINK_HEADER, DOWNLINK_OFFER, DOWNLINK_PATH, DownlinkDecoder } from '../../shared/web/downlink'
import { decodeFrame } from '../../shared/web/ws-protocol'
import { fetchDownlink, type WsBridge } from '../../renderer/src/lib/transport-ws'
import { openBridge, rawSocket, startFake, stopAll, until, type Running } from '../testing/transport-server'

function bridgeWithDownlink(r: Running): WsBridge {
  return openBridge(r, { openDownlink: fetchDownlink(r.httpOrigin) })
}

/** A raw socket that offers the downlink; resolves with it and the token from `hello`. */
async function rawClient(r: Running): Promise<{ socket: WebSocket; token: string; clientId: string; onWs: unknown[] }> {
  const socket = rawSocket(r, DOWNLINK_OFFER)
  const onWs: unknown[] = []
  const hello = await new Promise<{ downlink: string; clientId: string }>((resolve) =>
    socket.on('message', (data) => {
      const message = decodeFrame(String(data)) as { t: string; downlink?: string; clientId: string }
      onWs.push(message)
      if (message.t === 'hello' && message.downlink) resolve({ downlink: message.downlink, clientId: message.clientId })
    })
  )
  return { socket, token: hello.downlink, clientId: hello.clientId, onWs }
}

function openDownlink(r: Running, token: string, method = 'GET'): Promise<Response> {
  return fetch(`${r.httpOrigin}${DOWNLINK_PATH}`, { method, headers: { [DOWNLINK_HEADER]: token } })
}

/** Reads messages off a downlink response until `count` arrived. */
async function readMessages(response: Response, count: number): Promise<unknown[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new DownlinkDecoder()
  const messages: unknown[] = []
  while (messages.length < count) {
    const { value, done } = await reader.read()
    if (done) break
    for (const frame of decoder.push(value)) messages.push(decodeFrame(frame))
  }
  reader.releaseLock()
  return messages
}

afterEach(stopAll)

describe('downlink', () => {
  it('carries results and events (bytes too) down the stream, in the order they were sent', async () => {
    const { r, emit } = await startFake()
    const bridge = bridgeWithDownlink(r)
    const seen: string[] = []
    bridge.on('ssh.data', ({ data }) => seen.push(`data:${Array.from(data).join(',')}`))
    bridge.on('ssh.status', ({ state }) => seen.push(`status:${state}`))
    expect(await bridge.invoke('app.info')).toEqual({ ok: true, value: { version: '1' } })
    const clientId = bridge.clientId as string
    emit('ssh.data', { terminalId: 't', data: new Uint8Array([1, 2, 0xe2]) }, clientId)
    emit('ssh.data', { terminalId: 't', data: new Uint8Array([0x82, 0xac]) }, clientId)
    emit('ssh.status', { terminalId: 't', state: 'reconnecting', message: 'connection lost' }, clientId)
    await until(() => seen.length === 3)
    expect(seen).toEqual(['data:1,2,226', 'data:130,172', 'status:reconnecting'])
  })

  it('falls back to the socket when the downlink cannot be opened, calls in flight included', async () => {
    const { r, emit } = await startFake()
    let attempts = 0
    const bridge = openBridge(r, {
      reconnectDelayMs: () => 10,
      openDownlink: async () => {
        attempts++
        throw new Error('streamed responses blocked')
      }
    })
    expect(await bridge.invoke('app.info')).toEqual({ ok: true, value: { version: '1' } })
    const warnings: unknown[] = []
    bridge.on('warning', (warning) => warnings.push(warning))
    emit('warning', { id: 'w', message: 'after the fallback' })
    await until(() => warnings.length === 1)
    expect(attempts).toBe(1)
    expect(bridge.state).toBe('open')
  })

  it('sends only hello on the socket, and keeps what comes before the page opens the stream', async () => {
    const { r, emit } = await startFake()
    const { socket, token, onWs } = await rawClient(r)
    socket.send(JSON.stringify({ t: 'invoke', id: 1, command: 'app.info' }))
    emit('warning', { id: 'w', message: 'early' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    const response = await openDownlink(r, token)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const messages = (await readMessages(response, 2)) as { t: string }[]
    expect(messages.map((message) => message.t).sort()).toEqual(['event', 'result'])
    expect(onWs).toHaveLength(1)
    socket.close()
  })

  it('is not offered by a transport whose server does not serve it: the page stays on the socket', async () => {
    const { r } = await startFake({ downlink: false })
    const socket = rawSocket(r, DOWNLINK_OFFER)
    const messages: { t: string; downlink?: string }[] = []
    socket.on('message', (data) => messages.push(decodeFrame(String(data)) as { t: string; downlink?: string }))
    await new Promise((resolve) => socket.on('open', resolve))
    socket.send(JSON.stringify({ t: 'invoke', id: 1, command: 'app.info' }))
    await until(() => messages.some((message) => message.t === 'result'))
    expect(messages[0]).toEqual({ t: 'hello', clientId: expect.any(String) })
    socket.close()
  })

  it('refuses a wrong token, a token used once already and a method other than GET', async () => {
    const { r } = await startFake()
    const { socket, token } = await rawClient(r)
    expect((await openDownlink(r, 'f'.repeat(64))).status).toBe(401)
    expect((await openDownlink(r, token, 'POST')).status).toBe(401)
    const first = await openDownlink(r, token)
    expect(first.status).toBe(200)
    expect((await openDownlink(r, token)).status).toBe(401)
    socket.close()
    await first.body?.cancel()
  })

  it('lives and dies with its socket: either one ending ends the client', async () => {
    const { r, gone } = await startFake()
    const a = await rawClient(r)
    const streamA = await openDownlink(r, a.token)
    a.socket.close()
    await until(() => gone.length === 1)
    // The server ended the stream with the socket.
    expect(await readMessages(streamA, 1)).toEqual([])

    const b = await rawClient(r)
    const streamB = await openDownlink(r, b.token)
    const closed = new Promise<number>((resolve) => b.socket.on('close', (code) => resolve(code)))
    await streamB.body?.cancel()
    expect(await closed).toBe(1001)
    await until(() => gone.length === 2)
  })

  it('disconnects a page that never opens the downlink it asked for', async () => {
    const { r } = await startFake({ downlinkOpenTimeoutMs: 50 })
    const { socket } = await rawClient(r)
    const code = await new Promise<number>((resolve) => socket.on('close', (c) => resolve(c)))
    expect(code).toBe(1001)
  })

  it('disconnects a page that stops reading instead of buffering without end', async () => {
    const { r, emit } = await startFake({ maxBufferedBytes: 256 * 1024 })
    const { socket, token, clientId } = await rawClient(r)
    const response = await openDownlink(r, token)
    expect(response.status).toBe(200)
    const closed = new Promise<number>((resolve) => socket.on('close', (c) => resolve(c)))
    // Never read: the kernel's buffers fill, then the server's queue passes its limit.
    for (let i = 0; i < 400 && socket.readyState === socket.OPEN; i++) {
      emit('ssh.data', { terminalId: 't', data: new Uint8Array(64 * 1024) }, clientId)
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(await closed).toBe(1013)
  })
})
