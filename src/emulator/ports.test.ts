import { connect, createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ManualClock } from '../shared/clock'
import { sharedTestSigningKey, startEmulator, type Emulator } from './index'
import { NodePorts } from './ports'
import { createReach } from './reach'

let emulator: Emulator | undefined
afterEach(async () => {
  await emulator?.close()
  emulator = undefined
})

/** The first line a server at the port says, or the connection's error code. */
function greeting(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('data', (data) => {
      resolve(data.toString().split('\r\n')[0]!)
      socket.destroy()
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

/**
 * Asks the kernel for up to `count` free ports, as other programs' servers do, and answers which
 * it gave. The kernel soon hands back a port closed a moment ago: asked a few thousand times,
 * it gave such a port back in every run tried here (417 to 7001 asks, 12 runs; past ~7000 the kernel slows down sharply).
 */
async function portsGivenToOthers(count: number): Promise<Set<number>> {
  const servers: Server[] = []
  try {
    for (let index = 0; index < count; index++) {
      const server = createServer()
      const listening = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false))
        server.listen(0, '127.0.0.1', () => resolve(true))
      })
      // Out of file handles on a machine with a low limit: what was asked so far still counts.
      if (!listening) break
      servers.push(server)
    }
    return new Set(servers.map((server) => (server.address() as { port: number }).port))
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  }
}

describe('node ports', () => {
  it('a stopped instance keeps its SSH port: refused meanwhile, given to no one else, and its SSH answers there when it runs again', async () => {
    emulator = await startEmulator({ signingKeyPem: await sharedTestSigningKey(), clock: new ManualClock(), reach: createReach() })
    const [id] = await emulator.control.seedInstances('demo', 1)
    const instance = emulator.control.instances('demo').find((listed) => listed.instanceMetadata.instanceId === id)!
    const sshPort = instance.instanceSpecInfo.nodePorts.find((entry) => entry.port === 22)!.nodePort
    // Not greeted before the stop: a connection's socket would stay behind on the port and keep it
    // from the kernel's picks by itself.
    emulator.control.setStatus(id!, 'Stopped')
    await vi.waitFor(async () => expect(await greeting(sshPort)).toBe('ECONNREFUSED'), { timeout: 10_000 })
    expect((await portsGivenToOthers(7_000)).has(sshPort)).toBe(false)
    expect(await greeting(sshPort)).toBe('ECONNREFUSED')

    emulator.control.setStatus(id!, 'Running')
    await vi.waitFor(async () => expect(await greeting(sshPort)).toMatch(/^SSH-2\.0-/), { timeout: 10_000 })
  })

  it('says in the log when another program has an instance’s port', async () => {
    const other = createServer()
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    const port = (other.address() as { port: number }).port
    const lines: string[] = []
    const ports = new NodePorts((line) => lines.push(line))
    try {
      ports.reserve(port, false)
      await ports.hold(port)
      expect(lines).toEqual([`node port ${port} is taken by another program; its instance has no SSH until that program lets it go`])
    } finally {
      await ports.close()
      await new Promise((resolve) => other.close(resolve))
    }
  })
})
