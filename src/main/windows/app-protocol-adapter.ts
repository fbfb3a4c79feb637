/**
 * Serves the app window's page from app://cloud-tray/ (app-protocol.ts decides what to answer).
 * The scheme must be registered as privileged before Electron is ready (this module does it when
 * index.ts imports it); the handler is installed on the default session once it is.
 */
import { readFile } from 'node:fs/promises'
import { protocol } from 'electron'
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, appResponse } from './app-protocol'

/** Call once, before `ready`. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }])
}

/** After `ready`: answers app:// requests with the files of the built renderer folder. */
export function serveAppScheme(rendererDir: string): void {
  // Electron refuses a second handler for a scheme.
  if (protocol.isProtocolHandled(APP_SCHEME)) return
  protocol.handle(APP_SCHEME, async (request) => {
    const answer = appResponse(rendererDir, request.method, request.url)
    if (answer.status !== 200) return new Response(null, { status: answer.status, headers: answer.headers })
    const body = await readFile(answer.file).catch(() => undefined)
    if (!body) return new Response(null, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers: answer.headers })
  })
}
