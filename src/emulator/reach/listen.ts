/**
 * Listening on loopback and closing, as promises, with failures the user can act on. Takes the
 * small shape shared by net.Server, https.Server and ssh2's Server (which wraps a net.Server
 * but is not one).
 */
import type { EventEmitter } from 'node:events'
import type { AddressInfo } from 'node:net'

export interface Listenable extends EventEmitter {
  listen(port: number, host: string): unknown
  address(): AddressInfo | string | null
  close(callback?: (error?: Error) => void): unknown
}

/** Binds 127.0.0.1:<port> (0 = any free port) and answers the bound port. */
export function listenOnLoopback(server: Listenable, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening)
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${port} on 127.0.0.1 is already in use; stop what uses it or start the emulator with other ports.`, {
              cause: error
            })
          : error
      )
    }
    const onListening = (): void => {
      server.off('error', onError)
      const address = server.address()
      resolve(typeof address === 'object' && address !== null ? address.port : port)
    }
    server.once('error', onError)
    server.once('listening', onListening)
    server.listen(port, '127.0.0.1')
  })
}

/** Stops listening; a server that was never listening (or already closed) is fine. */
export function closeServer(server: Listenable): Promise<void> {
  return new Promise((resolve) => {
    try {
      server.close(() => resolve())
    } catch {
      resolve()
    }
  })
}
