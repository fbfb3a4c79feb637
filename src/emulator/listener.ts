/**
 * The HTTP listener on 127.0.0.1, which can be taken down (refusing connections, as when the
 * cloud is unreachable) and brought back on the same port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

export class Listener {
  readonly server: Server
  private port = 0
  private listening = false

  constructor(handler: (request: IncomingMessage, response: ServerResponse) => void) {
    this.server = createServer(handler)
    // A request line or headers node cannot parse still get a JSON answer, never a silent close.
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      if (!socket.writable) return socket.destroy()
      const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
      const body = JSON.stringify({ message: tooLarge ? 'The request headers are too large.' : 'The request is not valid HTTP.' })
      socket.end(
        `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
          `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
      )
    })
  }

  get boundPort(): number {
    return this.port
  }

  get isUp(): boolean {
    return this.listening
  }

  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error)
      this.server.once('error', onError)
      this.server.listen({ host: '127.0.0.1', port }, () => {
        this.server.off('error', onError)
        const address = this.server.address()
        this.port = typeof address === 'object' && address ? address.port : port
        this.listening = true
        resolve(this.port)
      })
    })
  }

  /** Stops accepting and cuts every open connection, so clients see refused / reset sockets. */
  down(): Promise<void> {
    if (!this.listening) return Promise.resolve()
    this.listening = false
    return new Promise((resolve) => {
      this.server.close(() => resolve())
      this.server.closeAllConnections()
    })
  }

  async up(): Promise<void> {
    if (this.listening) return
    await this.listen(this.port)
  }

  close(): Promise<void> {
    return this.down()
  }
}
