/**
 * The page's transport delivers what main sent in the order main sent it, as Electron's IPC does:
 * a call's answer is taken up by its caller before an event main sent after it, even when both
 * come in one read of the downlink.
 */
import { describe, expect, it } from 'vitest'
import { downlinkBytes } from '../../../shared/web/testing/downlink-bytes'
import type { InstancesSnapshot } from '../../../shared/contract'
import { toWire } from '../../../shared/web/instances-wire'
import { makeInstance } from '../../../shared/testing/instance'
import { encodeFrame } from '../../../shared/web/ws-protocol'
import { createWsBridge, type WebSocketLike } from './transport-ws'

/** A socket that opens at once and says hello with a downlink token; what the page sends is kept. */
function helloSocket(): WebSocketLike {
  const socket: WebSocketLike = {
    binaryType: 'arraybuffer',
    readyState: 1,
    send: () => {},
    close: () => {},
    onopen: null,
    onclose: null,
    onerror: null,
    onmessage: null
  }
  queueMicrotask(() => {
    socket.onopen?.({})
    socket.onmessage?.({ data: encodeFrame({ t: 'hello', clientId: 'c-1', downlink: 'token' }, false) })
  })
  return socket
}

/** Several messages as one read of the downlink. */
function oneRead(...messages: unknown[]): Uint8Array {
  return downlinkBytes(messages.map((message) => encodeFrame(message, false)))
}

describe('the page’s WebSocket transport with a downlink', () => {
  it('an answer and the event sent after it, in one read: the caller has the answer before the event is applied', async () => {
    let push!: (bytes: Uint8Array) => void
    const stream = new ReadableStream<Uint8Array>({ start: (controller) => (push = (bytes) => controller.enqueue(bytes)) })
    const bridge = createWsBridge({ origin: 'ws://127.0.0.1:1', secret: 's', createSocket: helloSocket, openDownlink: async () => stream })
    const order: string[] = []
    bridge.on('balance', () => order.push('event'))
    const answered = bridge.invoke('balance.get').then(() => order.push('answer'))
    await new Promise((resolve) => setTimeout(resolve, 0))
    push(
      oneRead(
        { t: 'result', id: 1, result: { ok: true, value: { balance: null, fetchedAt: null } } },
        { t: 'event', event: 'balance', payload: { balance: null, fetchedAt: 1 } }
      )
    )
    await answered
    await expect.poll(() => order).toEqual(['answer', 'event'])
    bridge.close()
  })

  it('the instance list comes in the server’s wire form and reaches listeners as the snapshot main sent', async () => {
    let push!: (bytes: Uint8Array) => void
    const stream = new ReadableStream<Uint8Array>({ start: (controller) => (push = (bytes) => controller.enqueue(bytes)) })
    const bridge = createWsBridge({ origin: 'ws://127.0.0.1:1', secret: 's', createSocket: helloSocket, openDownlink: async () => stream })
    const snapshot: InstancesSnapshot = {
      instances: [makeInstance({ id: 'a', name: 'one' }), makeInstance({ id: 'b', name: 'two', status: 'Stopped' })],
      fetchedAt: 7,
      mode: 'steady'
    }
    const heard: InstancesSnapshot[] = []
    bridge.on('instances', (payload) => heard.push(payload))
    await new Promise((resolve) => setTimeout(resolve, 0))
    push(oneRead({ t: 'event', event: 'instances', payload: toWire('instances', snapshot) }))
    await expect.poll(() => heard.length).toBe(1)
    expect(heard[0]).toEqual(snapshot)
    bridge.close()
  })
})
