/**
 * Free loopback ports for nodePorts. The kernel picks one (bind 127.0.0.1:0), we close it and
 * hand the number out; `taken` stops us handing the same number to two instances when the kernel
 * recycles it before reach has bound it.
 */
import { createServer } from 'node:net'

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))))
    })
  })
}

export async function allocateLoopbackPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await kernelPort()
    if (!taken.has(port)) {
      taken.add(port)
      return port
    }
  }
  throw new Error('could not find a free loopback port after 20 tries')
}
