/**
 * The notebook endpoint: one HTTPS server on 127.0.0.1 for every running instance (the regions'
 * `domain` points here), answering each instance's `subUrl` with its page when the
 * `AccessToken` cookie holds a valid token of the instance's owner, and 401 otherwise.
 */
import { createServer, type Server } from 'node:https'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { NotebookCertificate } from './notebook-certificate'
import { cookieValues } from './cookies'
import { closeServer, listenOnLoopback } from './listen'
import { PAGE_HEADERS, notFoundPage, notebookPage, signInPage } from './notebook-pages'

export interface NotebookAccess {
  /** The username a token belongs to, if the token is valid now. */
  verifyToken(token: string): { username: string } | undefined
  /** The instance's owner, while the emulator still knows the instance. */
  ownerOf(instanceId: string): string | undefined
  log(line: string): void
}

export interface NotebookServer {
  /** `127.0.0.1:<port>`: the `domain` the regions advertise. */
  readonly host: string
  readonly port: number
  /** Serve `subUrl` for this instance (it is Running). */
  add(instanceId: string, subUrl: string): void
  remove(instanceId: string): void
  close(): Promise<void>
}

export async function startNotebookServer(certificate: NotebookCertificate, access: NotebookAccess, port = 0): Promise<NotebookServer> {
  /** Normalised subUrl → instanceId. */
  const routes = new Map<string, string>()
  const server: Server = createServer({ cert: certificate.certPem, key: certificate.keyPem }, (request, response) => {
    answer(request, response, routes, access)
  })
  server.on('tlsClientError', () => {}) // e.g. a client that rejects the self-signed cert: its problem, not ours to log
  const bound = await listenOnLoopback(server, port)
  return {
    host: `127.0.0.1:${bound}`,
    port: bound,
    add(instanceId, subUrl) {
      for (const [path, id] of routes) if (id === instanceId) routes.delete(path)
      routes.set(normalisePath(subUrl), instanceId)
    },
    remove(instanceId) {
      for (const [path, id] of routes) if (id === instanceId) routes.delete(path)
    },
    async close() {
      server.closeAllConnections()
      await closeServer(server)
    }
  }
}

function answer(request: IncomingMessage, response: ServerResponse, routes: Map<string, string>, access: NotebookAccess): void {
  const send = (status: number, body: string, extra: Record<string, string> = {}): void => {
    response.writeHead(status, { ...PAGE_HEADERS, ...extra })
    response.end(request.method === 'HEAD' ? undefined : body)
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, notFoundPage(), { allow: 'GET, HEAD' })
  let path: string
  try {
    path = normalisePath(new URL(request.url ?? '/', 'https://notebook.invalid').pathname)
  } catch {
    return send(400, notFoundPage())
  }
  const instanceId = routes.get(path)
  if (instanceId === undefined) return send(404, notFoundPage())
  const owner = access.ownerOf(instanceId)
  if (owner === undefined) return send(404, notFoundPage())
  // Any AccessToken the browser sent may be the right one (an old cookie on another path can come first).
  for (const token of cookieValues(request.headers.cookie, 'AccessToken')) {
    const user = access.verifyToken(token)
    if (user?.username === owner) return send(200, notebookPage(instanceId, user.username))
  }
  // Never log the cookie: it is the user's access token.
  access.log(`notebook ${instanceId}: 401 (no valid AccessToken cookie of the owner)`)
  send(401, signInPage())
}

/** `/a/b/` and `/a/b` are the same page. */
function normalisePath(path: string): string {
  const withSlash = path.startsWith('/') ? path : `/${path}`
  return withSlash.length > 1 && withSlash.endsWith('/') ? withSlash.slice(0, -1) : withSlash
}
