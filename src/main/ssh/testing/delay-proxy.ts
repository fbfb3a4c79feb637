/**
 * A far link on loopback: a TCP proxy that holds every chunk `oneWayMs` in each direction before
 * passing it on (a timer queue per direction, order kept), without limiting bandwidth: it reads as
 * fast as the sender writes, so only the round trip it adds limits a protocol with a window, as a
 * link to another continent would. No kernel netem is needed (CI machines and these have none).
 *
 * `cut()` ends every connection through it at once, both ways (a dropped link: the server's
 * processes for that connection end too, the files they wrote stay), while it keeps listening,
 * so the next connection goes through: the fault tests of resumed transfers use it.
 *
 * Run as a process of its own for benchmarks (`node --import tsx delay-proxy.ts <targetPort>
 * <oneWayMs>` prints its port), so its timers never share an event loop with what it measures.
 */
import { createServer, connect, type Server, type Socket } from 'node:net'
import { fileURLToPath } from 'node:url'

export interface DelayProxy {
  readonly port: number
  /** Ends every connection through the proxy now; new ones are still taken. */
  cut(): void
  close(): Promise<void>
}

/** Passes what `from` sends to `to` `delayMs` later, in order. */
function delayed(from: Socket, to: Socket, delayMs: number): void {
  const queue: { due: number; data: Buffer }[] = []
  let timer: NodeJS.Timeout | undefined
  let ended = false
  const release = (): void => {
    timer = undefined
    const now = performance.now()
    // One writev for everything due: the proxy must not cost a syscall per chunk.
    to.cork()
    while (queue.length > 0 && queue[0]!.due <= now) to.write(queue.shift()!.data)
    to.uncork()
    if (queue.length > 0) timer = setTimeout(release, Math.max(0, queue[0]!.due - now))
    else if (ended) to.end()
  }
  from.on('data', (data: Buffer) => {
    queue.push({ due: performance.now() + delayMs, data })
    timer ??= setTimeout(release, delayMs)
  })
  from.on('end', () => {
    ended = true
    if (queue.length === 0 && timer === undefined) to.end()
  })
}

export function startDelayProxy(targetPort: number, oneWayMs: number, targetHost = '127.0.0.1'): Promise<DelayProxy> {
  const open = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, targetHost)
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true)
      open.add(socket)
      socket.on('close', () => {
        open.delete(socket)
        client.destroy()
        upstream.destroy()
      })
      socket.on('error', () => socket.destroy())
    }
    delayed(client, upstream, oneWayMs)
    delayed(upstream, client, oneWayMs)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        cut: () => {
          for (const socket of open) socket.destroy()
        },
        close: () =>
          new Promise((done) => {
            for (const socket of open) socket.destroy()
            server.close(() => done())
          })
      })
    })
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [targetPort, oneWayMs] = process.argv.slice(2).map(Number)
  void startDelayProxy(targetPort!, oneWayMs!).then((proxy) => console.log(proxy.port))
}
