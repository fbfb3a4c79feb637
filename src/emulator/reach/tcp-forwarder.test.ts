/**
 * The node ports' forwarder relays at once: Nagle off on both of its sockets (tcp-forwarder.ts).
 * Asserted on the calls, not on timing: the 40 ms it cost depends on the peer's delayed ACK.
 */
import { createServer, connect, Socket, type AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startTcpForwarder } from './tcp-forwarder'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('startTcpForwarder', () => {
  it('turns Nagle off on the accepted socket and on the one to the target, and relays bytes both ways', async () => {
    const setNoDelay = vi.spyOn(Socket.prototype, 'setNoDelay')
    const target = createServer((socket) => socket.pipe(socket))
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
    const forwarder = await startTcpForwarder(0, { host: '127.0.0.1', port: (target.address() as AddressInfo).port }, () => {})
    const client = connect({ host: '127.0.0.1', port: forwarder.port })
    try {
      const echoed = await new Promise<string>((resolve, reject) => {
        client.once('error', reject)
        client.once('data', (data) => resolve(data.toString()))
        client.write('k')
      })
      expect(echoed).toBe('k')
      // The client's own socket is not the forwarder's: count the calls made with `true` on the two it owns.
      const relaySockets = new Set(setNoDelay.mock.contexts.filter((_, i) => setNoDelay.mock.calls[i]![0] === true))
      relaySockets.delete(client)
      expect(relaySockets.size).toBe(2)
    } finally {
      client.destroy()
      await forwarder.close()
      await new Promise<void>((resolve) => target.close(() => resolve()))
    }
  })
})
