import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { secretsMatch } from '../../shared/node/secret'
import type { TransportCore } from './ws-server'
import type { WsBridge } from '../../renderer/src/lib/transport-ws'
import { fakeCore, openBridge, rawSocket, start, startFake, stopAll, until, type Running } from '../testing/transport-server'
import { WS_PROTOCOL, WS_SECRET_PREFIX, decodeFrame } from '../../shared/web/ws-protocol'

function bridgeFor(r: Running, secret = r.secret): WsBridge {
  return openBridge(r, { secret })
}

/** Opens a raw socket and reports the HTTP status of a refused upgrade, or 101. */
function upgradeStatus(url: string, protocols: string[], origin: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, protocols, { origin })
    socket.on('open', () => {
      socket.close()
      resolve(101)
    })
    socket.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0)
      socket.terminate()
    })
    socket.on('error', () => undefined)
  })
}

afterEach(stopAll)

describe('ws transport', () => {
  it('answers invokes with the core result and a per-connection client id', async () => {
    const { r, calls } = await startFake()
    const a = bridgeFor(r)
    const b = bridgeFor(r)
    const info = await a.invoke('app.info')
    expect(info).toEqual({ ok: true, value: { version: '1' } })
    const stop = await b.invoke('instances.stop', { instanceId: 'x' })
    expect(stop).toEqual({ ok: false, error: { kind: 'not-allowed', message: 'no instances.stop' } })
    expect(calls[0]!.clientId).not.toBe(calls[1]!.clientId)
    expect(calls[1]!.input).toEqual({ instanceId: 'x' })
  })

  it('welcomes each page after its hello, with events addressed to it alone', async () => {
    const { core, emit } = fakeCore()
    const welcomed: string[] = []
    const r = await start(core, {
      welcome(clientId) {
        welcomed.push(clientId)
        emit('warning', { id: 'welcome', message: `hello ${clientId}` }, clientId)
      }
    })
    const a = bridgeFor(r)
    const heardByA: unknown[] = []
    a.on('warning', (warning) => heardByA.push(warning))
    await a.invoke('app.info')
    expect(heardByA).toEqual([{ id: 'welcome', message: `hello ${a.clientId}` }])
    const b = bridgeFor(r)
    await b.invoke('app.info')
    expect(welcomed).toEqual([a.clientId, b.clientId])
    expect(heardByA).toHaveLength(1)
  })

  it('refuses unknown commands without calling the core', async () => {
    const { r, calls } = await startFake()
    const bridge = bridgeFor(r)
    const result = await bridge.invoke('no.such' as never)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error.kind).toBe('bad-input')
    expect(calls).toHaveLength(0)
  })

  it('broadcasts events, and sends targeted ones (with bytes) only to their client', async () => {
    const { r, emit } = await startFake()
    const a = bridgeFor(r)
    const b = bridgeFor(r)
    await a.invoke('app.info')
    await b.invoke('app.info')
    const seenA: unknown[] = []
    const seenB: unknown[] = []
    a.on('ssh.data', (p) => seenA.push(p))
    b.on('ssh.data', (p) => seenB.push(p))
    a.on('warning', (p) => seenA.push(p))
    b.on('warning', (p) => seenB.push(p))
    await until(() => a.clientId !== null && b.clientId !== null)
    const bytes = new Uint8Array([0, 1, 2, 255, 0xe2, 0x82, 0xac])
    emit('ssh.data', { terminalId: 't1', data: bytes }, a.clientId!)
    emit('warning', { id: 'w', message: 'hello' })
    await until(() => seenA.length === 2 && seenB.length === 1)
    const data = seenA[0] as { terminalId: string; data: Uint8Array }
    expect(data.terminalId).toBe('t1')
    expect(data.data).toBeInstanceOf(Uint8Array)
    expect(Array.from(data.data)).toEqual(Array.from(bytes))
    expect(seenB).toEqual([{ id: 'w', message: 'hello' }])
  })

  it('carries bytes from page to main too', async () => {
    const { r, calls } = await startFake()
    const bridge = bridgeFor(r)
    // No command takes bytes today; the codec must still round-trip them if one does.
    await bridge.invoke('external.open', { url: new Uint8Array([7, 8]) as never })
    const sent = (calls[0]!.input as { url: Uint8Array }).url
    expect(sent).toBeInstanceOf(Uint8Array)
    expect(Array.from(sent)).toEqual([7, 8])
  })

  it('answers no notice, and hands on any notice name for the core to judge', async () => {
    const { r, calls } = await startFake()
    const socket = rawSocket(r)
    const results: number[] = []
    socket.on('message', (data) => {
      const message = decodeFrame(String(data)) as { t: string; id?: number }
      if (message.t === 'result') results.push(message.id as number)
    })
    await new Promise((resolve) => socket.on('open', resolve))
    socket.send(JSON.stringify({ t: 'notice', notice: 'ssh.ack', input: { terminalId: 't', bytes: 5 } }))
    socket.send(JSON.stringify({ t: 'notice', notice: 'app.info' }))
    socket.send(JSON.stringify({ t: 'invoke', id: 3, command: 'app.info' }))
    await until(() => results.includes(3))
    socket.close()
    expect(results).toEqual([3])
    expect(calls.map((call) => call.command)).toEqual(['ssh.ack', 'app.info', 'app.info'])
    expect(calls[0]!.input).toEqual({ terminalId: 't', bytes: 5 })
  })

  it('send is one way while connected and drops what it would send while the socket is down', async () => {
    const { r, calls } = await startFake()
    const bridge = bridgeFor(r)
    bridge.send('ssh.ack', { terminalId: 't', bytes: 1 })
    await bridge.invoke('app.info')
    bridge.send('ssh.ack', { terminalId: 't', bytes: 2 })
    await bridge.invoke('app.info')
    expect(calls.map((call) => [call.command, call.input])).toEqual([
      ['app.info', undefined],
      ['ssh.ack', { terminalId: 't', bytes: 2 }],
      ['app.info', undefined]
    ])
  })

  it('tells the core when a client goes away', async () => {
    const { r, gone } = await startFake()
    const bridge = bridgeFor(r)
    await bridge.invoke('app.info')
    const id = bridge.clientId
    bridge.close()
    await until(() => gone.length === 1)
    expect(gone).toEqual([id])
    expect(r.transport.clientCount).toBe(0)
  })

  it('refuses a wrong secret, a foreign origin, a foreign host and a missing protocol', async () => {
    const { r, calls } = await startFake()
    const url = `${r.origin}/ws`
    const good = [WS_PROTOCOL, `${WS_SECRET_PREFIX}${r.secret}`]
    expect(await upgradeStatus(url, good, r.httpOrigin)).toBe(101)
    expect(await upgradeStatus(url, [WS_PROTOCOL, `${WS_SECRET_PREFIX}${'0'.repeat(64)}`], r.httpOrigin)).toBe(401)
    expect(await upgradeStatus(url, [WS_PROTOCOL], r.httpOrigin)).toBe(401)
    expect(await upgradeStatus(url, good, 'http://evil.example')).toBe(403)
    expect(await upgradeStatus(url, [`${WS_SECRET_PREFIX}${r.secret}`], r.httpOrigin)).toBe(400)
    expect(await upgradeStatus(`${r.origin}/other`, good, r.httpOrigin)).toBe(404)
    const port = new URL(r.origin).port
    expect(await upgradeStatus(`ws://localhost:${port}/ws`, good, r.httpOrigin)).toBe(403)
    expect(calls).toHaveLength(0)
  })

  it('never echoes the secret in the accepted protocol', async () => {
    const { r } = await startFake()
    const socket = rawSocket(r)
    await new Promise((resolve) => socket.on('open', resolve))
    expect(socket.protocol).toBe(WS_PROTOCOL)
    socket.close()
  })

  it('closes a connection that sends garbage', async () => {
    const { r } = await startFake()
    const socket = rawSocket(r)
    await new Promise((resolve) => socket.on('open', resolve))
    const code = new Promise<number>((resolve) => socket.on('close', (c) => resolve(c)))
    socket.send('{not json')
    expect(await code).toBe(1008)
  })

  it('resolves calls in flight with a network error when the server goes, and reconnects', async () => {
    const { core } = fakeCore()
    // A core whose handle never answers, so the call is in flight when the socket drops.
    const stuck: TransportCore = { ...core, handle: () => new Promise(() => undefined) }
    const r = await start(stuck)
    const states: string[] = []
    const bridge = openBridge(r, {
      onState: (s) => states.push(s),
      reconnectDelayMs: () => 10
    })
    const call = bridge.invoke('app.info')
    await until(() => bridge.state === 'open')
    await r.transport.close()
    const result = await call
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error.kind).toBe('network')
    expect(states).toContain('reconnecting')
  })

  it('compares secrets in constant time regardless of length', () => {
    expect(secretsMatch('abc', 'abc')).toBe(true)
    expect(secretsMatch('abd', 'abc')).toBe(false)
    expect(secretsMatch('', 'abc')).toBe(false)
  })
})
