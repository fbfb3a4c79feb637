/**
 * A company's network as the API client meets it, on loopback: a private certificate authority
 * (the root a TLS-inspecting proxy or an internal service is signed with, trusted by the OS but
 * not by Node's bundled roots), a cloud API served over TLS with a certificate it signed, and an
 * HTTP CONNECT proxy that resolves every name to 127.0.0.1 (so `cloud.test` is reachable only
 * through it, as an internal name is only through the company's proxy).
 */
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net'
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { generate } from 'selfsigned'
import { serverCertificateOptions } from '../../../emulator/reach/notebook-certificate'

export interface PrivateCa {
  certPem: string
  keyPem: string
}

export async function makePrivateCa(): Promise<PrivateCa> {
  const now = Date.now()
  const made = await generate([{ name: 'commonName', value: 'Cloud Tray test corporate root' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true }
    ]
  })
  return { certPem: made.cert, keyPem: made.private }
}

/** A server certificate for `hostname` (and 127.0.0.1), signed by the private CA. */
export async function serverCertificate(ca: PrivateCa, hostname: string): Promise<{ certPem: string; keyPem: string }> {
  const made = await generate([{ name: 'commonName', value: hostname }], {
    ...serverCertificateOptions(hostname, new Date(), 1),
    ca: { key: ca.keyPem, cert: ca.certPem }
  })
  return { certPem: made.cert, keyPem: made.private }
}

export interface Listening {
  port: number
  close(): Promise<void>
}

async function listen(server: Server, sockets: Set<Socket>): Promise<Listening> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}

/** HTTPS in front of an http:// API (the emulator): every request passed through as it came. */
export async function tlsFront(target: string, certificate: { certPem: string; keyPem: string }): Promise<Listening> {
  const upstream = new URL(target)
  const server = createHttpsServer({ cert: certificate.certPem, key: certificate.keyPem }, (request, response) => {
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host }
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      }
    )
    forward.on('error', () => response.writeHead(502).end())
    request.pipe(forward)
  })
  return listen(server, new Set())
}

export interface ConnectProxy extends Listening {
  /** `host:port` of every CONNECT let through, in order. */
  readonly tunnels: string[]
  /** Every CONNECT's Proxy-Authorization (undefined: none sent), in order, let through or not. */
  readonly authorizations: (string | undefined)[]
  /** The URL to give HTTPS_PROXY. */
  readonly url: string
  /** `127.0.0.1:port`, as the app names it. */
  readonly hostPort: string
  /** What it asks for from now on (a company proxy's password changes too), ending open tunnels; null: nothing. */
  require(credentials: { username: string; password: string } | null): void
}

/**
 * An HTTP proxy that tunnels CONNECT to 127.0.0.1 at the asked port, whatever the name; given
 * credentials, it answers any CONNECT without exactly those (Basic) with 407, as a company's
 * proxy does.
 */
export async function connectProxy(credentials: { username: string; password: string } | null = null): Promise<ConnectProxy> {
  const tunnels: string[] = []
  const authorizations: (string | undefined)[] = []
  let expected = credentials
  const sockets = new Set<Socket>()
  const server = createHttpServer((_request, response) => response.writeHead(405).end('CONNECT only'))
  server.on('connect', (request, client: Socket, head: Buffer) => {
    const target = request.url ?? ''
    const sent = request.headers['proxy-authorization']
    authorizations.push(sent)
    if (expected && sent !== `Basic ${Buffer.from(`${expected.username}:${expected.password}`).toString('base64')}`) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n')
      return
    }
    tunnels.push(target)
    const port = Number(/:(\d+)$/.exec(target)?.[1] ?? 443)
    sockets.add(client)
    client.once('close', () => sockets.delete(client))
    const upstream = netConnect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length > 0) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.once('close', () => sockets.delete(upstream))
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  const listening = await listen(server, sockets)
  return {
    ...listening,
    tunnels,
    authorizations,
    url: `http://127.0.0.1:${listening.port}`,
    hostPort: `127.0.0.1:${listening.port}`,
    require: (next) => {
      expected = next
      // A changed password drops the tunnels made with the old one.
      for (const socket of sockets) socket.destroy()
    }
  }
}
