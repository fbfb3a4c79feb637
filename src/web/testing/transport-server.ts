/** A loopback server with the WebSocket transport on a fake core, for the transport's tests. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'vitest'
import WebSocket from 'ws'
import type { EventSink } from '../../main/core-types'
import { createWsBridge, type WebSocketLike, type WsBridge, type WsBridgeOptions } from '../../renderer/src/lib/transport-ws'
import { createSecret } from '../../shared/node/secret'
import { WS_PROTOCOL, WS_SECRET_PREFIX } from '../../shared/web/ws-protocol'
import { attachWsTransport, type TransportCore, type WsTransport, type WsTransportOptions } from '../transport/ws-server'

/** A core that echoes, records notices and clientGone, and lets the test emit events. */
export function fakeCore() {
  const sinks = new Set<EventSink>()
  const gone: string[] = []
  const calls: { command: string; input: unknown; clientId: string }[] = []
  const core: TransportCore = {
    async handle(command, input, context) {
      calls.push({ command, input, clientId: context.clientId })
      if (command === 'app.info') {
        return { ok: true, value: { version: '1' } } as never
      }
      if (command === 'external.open') return { ok: true, value: undefined } as never
      return { ok: false, error: { kind: 'not-allowed', message: `no ${command}` } } as never
    },
    notice(notice, input, context) {
      calls.push({ command: notice, input, clientId: context.clientId })
    },
    subscribe(sink) {
      sinks.add(sink)
      return () => sinks.delete(sink)
    },
    clientGone(id) {
      gone.push(id)
    }
  }
  const emit: EventSink = (event, payload, target) => {
    for (const sink of sinks) sink(event, payload, target)
  }
  return { core, emit, gone, calls, sinks }
}

export interface Running {
  server: Server
  transport: WsTransport
  origin: string
  httpOrigin: string
  secret: string
}

let running: Running | undefined

/** Starts the server (downlink requests go to the transport, anything else answers "ok"). */
export async function start(core: TransportCore, extra: Partial<WsTransportOptions> = {}): Promise<Running> {
  const server = createServer((request, response) => {
    if (!running?.transport.handleRequest(request, response)) response.end('ok')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const secret = createSecret()
  const transport = attachWsTransport(server, {
    core,
    secret,
    allowedOrigins: () => [`http://127.0.0.1:${port}`],
    allowedHosts: () => [`127.0.0.1:${port}`],
    downlink: true,
    ...extra
  })
  running = { server, transport, origin: `ws://127.0.0.1:${port}`, httpOrigin: `http://127.0.0.1:${port}`, secret }
  return running
}

/** A fake core (see fakeCore) behind a started server, `r`. */
export async function startFake(extra: Partial<WsTransportOptions> = {}) {
  const fake = fakeCore()
  return { ...fake, r: await start(fake.core, extra) }
}

export async function stopRunning(): Promise<void> {
  if (!running) return
  const { transport, server } = running
  running = undefined
  await transport.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
}

export function nodeSocketFactory(origin: string) {
  return (url: string, protocols: string[]) => new WebSocket(url, protocols, { origin }) as unknown as WebSocketLike
}

const bridges: WsBridge[] = []

/** A page's bridge to the running server, with its secret unless `over` says otherwise; `stopAll` closes it. */
export function openBridge(r: Running, over: Partial<WsBridgeOptions> = {}): WsBridge {
  const bridge = createWsBridge({ origin: r.origin, secret: r.secret, createSocket: nodeSocketFactory(r.httpOrigin), ...over })
  bridges.push(bridge)
  return bridge
}

/** After each test: closes every bridge `openBridge` opened, then the server. */
export async function stopAll(): Promise<void> {
  for (const bridge of bridges.splice(0)) bridge.close()
  await stopRunning()
}

/** A raw page socket with the right secret and origin; `offers` are further protocols (the downlink offer). */
export function rawSocket(r: Running, ...offers: string[]): WebSocket {
  return new WebSocket(`${r.origin}/ws`, [WS_PROTOCOL, `${WS_SECRET_PREFIX}${r.secret}`, ...offers], { origin: r.httpOrigin })
}

/** Until `check` holds, in real time: up to 10 s, since a loaded machine can stall a socket's answer for a second. */
export async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(check()).toBe(true)
}
