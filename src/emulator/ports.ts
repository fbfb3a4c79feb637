/**
 * Loopback ports for instances' nodePorts, each an instance's from its create to its delete.
 *
 * The kernel picks a free port (listen on port 0, then close). Between then and the moment reach
 * listens on it (the instance boots), and again while the instance is stopped, nothing listened
 * there, so the kernel could hand the same port to anyone asking for a free one: another test's
 * server, or another program on the user's machine. The instance then came back with no SSH.
 *
 * So while reach does not listen on a port, a hold keeps it: a TCP connection of ours, from that
 * port to an anchor listener of ours. The kernel does not give a port a socket is bound to to
 * anyone asking for a free one, and a connection to it is still refused, as a stopped machine's
 * would be, since nothing listens there. Reach lets go of the hold just before it listens (some
 * systems refuse a listen on a port another socket is bound to) and gives it back once it stops.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net'

const LOOPBACK = '127.0.0.1'

interface Hold {
  /** Absent while the anchor is still starting. */
  socket?: Socket
}

export class NodePorts {
  /** Handed out and not yet freed: never handed out twice, even when the kernel recycles one. */
  private readonly numbers = new Set<number>()
  private readonly holds = new Map<number, Hold>()
  /** The anchors' accepted ends of the holds, ended on close. */
  private readonly anchored = new Set<Socket>()
  private anchor: Promise<Server> | undefined
  private closed = false

  constructor(private readonly log: (line: string) => void) {}

  /** A free port of its own; held at once when `hold` (reach will listen on it). */
  async allocate(hold: boolean): Promise<number> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const port = await kernelPort()
      if (this.numbers.has(port)) continue
      this.numbers.add(port)
      if (hold) await this.hold(port)
      return port
    }
    throw new Error('could not find a free loopback port after 20 tries')
  }

  /** A port an instance already has (restored from the state file). */
  reserve(port: number, hold: boolean): void {
    this.numbers.add(port)
    if (hold) void this.hold(port)
  }

  /** Keeps the port until `letGo`. Settles once held, or once that failed (logged). */
  async hold(port: number): Promise<void> {
    if (this.closed || !this.numbers.has(port) || this.holds.has(port)) return
    const hold: Hold = {}
    this.holds.set(port, hold)
    const anchor = await this.anchorPort().catch((error: unknown) => {
      this.log(`node ports: cannot keep ports for stopped instances: ${(error as Error).message}`)
      return undefined
    })
    // Let go of (or closed) meanwhile.
    if (anchor === undefined || this.holds.get(port) !== hold) return
    const socket = connect({ host: LOOPBACK, port: anchor, localAddress: LOOPBACK, localPort: port })
    socket.unref()
    hold.socket = socket
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (this.holds.get(port) !== hold) return
      this.holds.delete(port)
      this.log(
        error.code === 'EADDRINUSE'
          ? `node port ${port} is taken by another program; its instance has no SSH until that program lets it go`
          : `node port ${port} could not be kept for its instance: ${error.message}`
      )
    })
    // 'close' follows a failure, and a letGo while still connecting.
    await new Promise<void>((resolve) => {
      socket.once('connect', resolve)
      socket.once('close', () => resolve())
    })
  }

  /** Reach is about to listen on the port. */
  letGo(port: number): void {
    const hold = this.holds.get(port)
    if (!hold) return
    this.holds.delete(port)
    const socket = hold.socket
    if (!socket) return
    // A reset leaves no TIME_WAIT behind on the port; a connection not yet made has nothing to reset.
    if (socket.connecting) socket.destroy()
    else socket.resetAndDestroy()
  }

  /** The instance is gone: its port may be handed out again. */
  free(port: number): void {
    this.letGo(port)
    this.numbers.delete(port)
  }

  async close(): Promise<void> {
    this.closed = true
    for (const port of [...this.holds.keys()]) this.letGo(port)
    for (const socket of this.anchored) socket.destroy()
    const anchor = await this.anchor?.catch(() => undefined)
    if (anchor) await new Promise<void>((resolve) => anchor.close(() => resolve()))
  }

  private anchorPort(): Promise<number> {
    this.anchor ??= new Promise<Server>((resolve, reject) => {
      const server = createServer((socket) => {
        socket.unref()
        // The hold's end resets the connection when it lets go: that is not a failure.
        socket.on('error', () => {})
        this.anchored.add(socket)
        socket.once('close', () => this.anchored.delete(socket))
        if (this.closed) socket.destroy()
      })
      server.unref()
      server.once('error', reject)
      server.listen({ host: LOOPBACK, port: 0 }, () => resolve(server))
    })
    return this.anchor.then((server) => (server.address() as AddressInfo).port)
  }
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen({ host: LOOPBACK, port: 0, exclusive: true }, () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))))
    })
  })
}
