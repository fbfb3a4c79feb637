/**
 * A node port: a TCP listener on 127.0.0.1:<listenPort> that pipes every connection to a target
 * (an app inside the "instance", i.e. 127.0.0.1:<port>, or an existing SSH server for
 * `--ssh-backend`). `pipe` carries backpressure both ways; an error on either side ends both.
 *
 * Both sockets send at once (no Nagle): a relay must not add delays the two ends did not ask for.
 * With Nagle on, a keystroke's small packet arriving while the relay's last write was still
 * unacknowledged waited for the far end's delayed ACK, 40 ms on Linux: the typing benchmark saw
 * one echo in six come back ~44 ms late while another tab flooded the same SSH connection.
 */
import { createServer, connect, type Socket } from 'node:net'
import { listenOnLoopback, closeServer } from './listen'

export interface TcpForwarder {
  readonly port: number
  close(): Promise<void>
}

export interface ForwardTarget {
  host: string
  port: number
}

export async function startTcpForwarder(listenPort: number, target: ForwardTarget, log: (line: string) => void): Promise<TcpForwarder> {
  const open = new Set<Socket>()
  // Half-open both ways, so an end (FIN) on one side reaches the other through pipe() after the
  // bytes before it: the target may answer and close at once (an SSH banner, an HTTP/1.0 reply).
  const server = createServer({ allowHalfOpen: true }, (incoming) => {
    const outgoing = connect({ host: target.host, port: target.port, allowHalfOpen: true })
    incoming.setNoDelay(true)
    outgoing.setNoDelay(true)
    open.add(incoming)
    open.add(outgoing)
    const forget = (socket: Socket) => () => open.delete(socket)
    incoming.once('close', forget(incoming))
    outgoing.once('close', forget(outgoing))
    // An error on either side ends both at once; a clean end travels through pipe() instead.
    incoming.on('error', () => outgoing.destroy())
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      log(`node port ${listenPort}: nothing answers at ${target.host}:${target.port} (${error.code ?? error.message})`)
      incoming.destroy()
    })
    incoming.pipe(outgoing)
    outgoing.pipe(incoming)
  })
  const port = await listenOnLoopback(server, listenPort)
  return {
    port,
    async close() {
      for (const socket of open) socket.destroy()
      open.clear()
      await closeServer(server)
    }
  }
}
