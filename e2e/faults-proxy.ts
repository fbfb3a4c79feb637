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
  /** Requests forwarded per path (e.g. '/api/instance/create'). */
  forwarded(path: string): number
  close(): Promise<void>
}

export async function startLossyProxy(upstreamBaseUrl: string): Promise<LossyProxy> {
  const upstream = new URL(upstreamBaseUrl)
  const losses = new Map<string, number>()
  const counts = new Map<string, number>()

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/'
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
    forwarded: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      })
  }
}
