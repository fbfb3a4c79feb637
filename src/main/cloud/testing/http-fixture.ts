/**
 * A scriptable HTTP server on 127.0.0.1 for the client's tests: each test sets how it answers
 * and reads back what the client sent. Test-only (imported by *.test.ts files).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { expect } from 'vitest'
import { isCloudError, type CloudError } from '../errors'

export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void

export interface HttpFixture {
  baseUrl: string
  port: number
  requests: RecordedRequest[]
  /** TCP connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  connections(): number
  answer(handler: Handler): void
  close(): Promise<void>
}

/** Answers JSON with a status. */
export function json(response: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  response.end(text)
}

export async function startHttpFixture(options: { prefix?: string; tls?: { key: string; cert: string } } = {}): Promise<HttpFixture> {
  let handler: Handler = (_request, response) => json(response, 404, { message: 'no handler' })
  const requests: RecordedRequest[] = []
  const sockets = new Set<Socket>()
  let connections = 0
  const listener = (incoming: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const request = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8')
      }
      requests.push(request)
      handler(request, response)
    })
  }
  const server = options.tls ? createHttpsServer(options.tls, listener) : createHttpServer(listener)
  const onSocket = (socket: Socket): void => {
    connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  }
  server.on(options.tls ? 'secureConnection' : 'connection', onSocket)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const scheme = options.tls ? 'https' : 'http'
  return {
    baseUrl: `${scheme}://127.0.0.1:${port}${options.prefix ?? '/api'}`,
    port,
    requests,
    connections: () => connections,
    answer(next) {
      handler = next
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
/** The CloudError a call fails with; fails the test if it succeeds or throws anything else. */
export async function failureOf(promise: Promise<unknown>): Promise<CloudError> {
  try {
    await promise
  } catch (error) {
    expect(isCloudError(error)).toBe(true)
    return error as CloudError
  }
  throw new Error('expected the call to fail')
}
