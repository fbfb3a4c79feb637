/**
 * An HTTP server on 127.0.0.1 playing an app inside the instance, for tunnel tests and the
 * tunnel benchmark: `GET /` answers a line, `GET /bytes/<n>` streams n deterministic bytes, and
 * `POST /sha256` answers the SHA-256 of the body it read. Plus a client that reads either through
 * any address, hashing as it goes (64 MiB never sits in memory).
 */
import { createHash } from 'node:crypto'
import { createServer, request, type IncomingMessage, type Server } from 'node:http'
import { Readable } from 'node:stream'

export interface HttpTarget {
  readonly port: number
  close(): Promise<void>
}

/**
 * The bytes every stream repeats: a period of 1 MiB + 13, a multiple of no chunk or packet size,
 * so a dropped, repeated or reordered chunk changes the hash.
 */
const PERIOD = 1024 * 1024 + 13
const BASE = Buffer.from(Array.from({ length: PERIOD }, (_, n) => (Math.imul(n, 2654435761) >>> 24) ^ (n & 0xff)))

/** Bytes offset…offset+length of the pattern. */
export function patternChunk(offset: number, length: number): Buffer {
  const chunk = Buffer.allocUnsafe(length)
  let filled = 0
  while (filled < length) {
    const from = (offset + filled) % PERIOD
    filled += BASE.copy(chunk, filled, from, Math.min(PERIOD, from + length - filled))
  }
  return chunk
}

/** A stream of `size` pattern bytes, made in 64 KiB chunks as it is read. */
export function patternStream(size: number): Readable {
  let offset = 0
  return new Readable({
    read() {
      if (offset >= size) return void this.push(null)
      const length = Math.min(64 * 1024, size - offset)
      this.push(patternChunk(offset, length))
      offset += length
    }
  })
}

export async function sha256Of(stream: AsyncIterable<Buffer | Uint8Array>): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256')
  let bytes = 0
  for await (const chunk of stream) {
    hash.update(chunk)
    bytes += chunk.length
  }
  return { sha256: hash.digest('hex'), bytes }
}

export async function startHttpTarget(): Promise<HttpTarget> {
  const server: Server = createServer((req, res) => {
    const bytes = /^\/bytes\/(\d+)$/.exec(req.url ?? '')
    if (req.method === 'GET' && req.url === '/') return void res.end('hello from inside the instance\n')
    if (req.method === 'GET' && bytes) {
      const size = Number(bytes[1])
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size })
      return void patternStream(size).pipe(res)
    }
    if (req.method === 'POST' && req.url === '/sha256') {
      return void sha256Of(req).then((digest) => res.end(JSON.stringify(digest)))
    }
    res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** One HTTP exchange at 127.0.0.1:port (a fresh connection each time), the answer as a stream. */
export function httpRequest(port: number, method: string, path: string, body?: Readable): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false }, resolve)
    req.on('error', reject)
    if (body) body.pipe(req)
    else req.end()
  })
}

export async function textOf(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of response) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function httpText(port: number, path = '/'): Promise<string> {
  return textOf(await httpRequest(port, 'GET', path))
}

/** Sends `size` pattern bytes and answers what the target hashed, with what was expected. */
export async function postPattern(
  port: number,
  size: number
): Promise<{ received: { sha256: string; bytes: number }; sent: { sha256: string; bytes: number } }> {
  const response = await httpRequest(port, 'POST', '/sha256', patternStream(size))
  const received = JSON.parse(await textOf(response)) as { sha256: string; bytes: number }
  return { received, sent: await sha256Of(patternStream(size)) }
}
