/**
 * Serves the built renderer: only files inside its folder, with the right types, never cached
 * (a rebuilt renderer must show on reload), and with the page's security headers.
 */
import { readFile, stat } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import { CONTENT_TYPES } from '../shared/node/content-types'

const HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin'
}

/** The file under `root` a URL path names, or null when it would leave `root`. */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0] ?? '/')
  } catch {
    return null
  }
  if (decoded.includes('\0')) return null
  const relativePath = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '')
  const full = normalize(join(root, relativePath))
  const rootWithSep = root.endsWith(sep) ? root : root + sep
  return full.startsWith(rootWithSep) ? full : null
}

export async function serveStatic(root: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { ...HEADERS, Allow: 'GET, HEAD' }).end()
    return
  }
  const path = resolveStaticPath(root, new URL(request.url ?? '/', 'http://x').pathname)
  const info = path ? await stat(path).catch(() => undefined) : undefined
  if (!path || !info?.isFile()) {
    response.writeHead(404, { ...HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found')
    return
  }
  const body = await readFile(path)
  response.writeHead(200, {
    ...HEADERS,
    'Content-Type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
    'Content-Length': body.length
  })
  response.end(request.method === 'HEAD' ? undefined : body)
}
