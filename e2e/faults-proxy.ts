/**
 * A loopback HTTP proxy in front of the emulator that can lose answers *after* the cloud acted:
 * the request is forwarded, the upstream answer arrives, and then the client's socket is
 * destroyed instead of answered. That is the fault that duplicates creates in naive clients (the
 * instance exists, the app never heard), and the emulator's own faults (which drop before
 * handling) cannot produce it.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface LossyProxy {
  /** http://127.0.0.1:N/api: give this to the app as its base URL. */
  baseUrl: string
  /** Lose the answer of the next `count` requests whose path ends with `pathSuffix`. */
  loseAnswers(pathSuffix: string, count?: number): void
  /**
   * The next `count` requests whose path ends with `pathSuffix` never arrive: their connection
   * is destroyed before anything is forwarded (the cloud does nothing, the app hears nothing).
   */
  dropRequests(pathSuffix: string, count?: number): void
  /** The body of the last request to `path`, forwarded or dropped (e.g. to replay it as another client). */
  lastBody(path: string): string | undefined
  /** Requests forwarded per path (e.g. '/api/instance/create'). */
  forwarded(path: string): number
  close(): Promise<void>
}

export async function startLossyProxy(upstreamBaseUrl: string): Promise<LossyProxy> {
  const upstream = new URL(upstreamBaseUrl)
  const losses = new Map<string, number>()
  const drops = new Map<string, number>()
  const counts = new Map<string, number>()
  const bodies = new Map<string, string>()

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => bodies.set(path, Buffer.concat(chunks).toString('utf8')))
    const dropped = [...drops.keys()].find((s) => path.endsWith(s) && (drops.get(s) ?? 0) > 0)
    if (dropped !== undefined) {
      drops.set(dropped, (drops.get(dropped) ?? 1) - 1)
      // Read the request (so its body is known), then cut the connection: it never reached the cloud.
      req.on('end', () => req.socket.destroy())
      req.resume()
      return
    }
    counts.set(path, (counts.get(path) ?? 0) + 1)
    const suffix = [...losses.keys()].find((s) => path.endsWith(s) && (losses.get(s) ?? 0) > 0)
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer: IncomingMessage) => {
        if (suffix !== undefined) {
          losses.set(suffix, (losses.get(suffix) ?? 1) - 1)
          answer.resume()
          // The cloud has done the work; the app's connection dies before it hears of it.
          answer.on('end', () => req.socket.destroy())
          return
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    forward.on('error', () => req.socket.destroy())
    req.pipe(forward)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/+$/, '')}`,
    loseAnswers(pathSuffix, count = 1) {
      losses.set(pathSuffix, count)
    },
    dropRequests(pathSuffix, count = 1) {
      drops.set(pathSuffix, count)
    },
    lastBody: (path) => bodies.get(path),
    forwarded: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      })
  }
}
