import { existsSync, statSync } from 'node:fs'
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import type { TrayModel } from '../shared/contract'
import type { RecordedEffect } from '../shared/web/web-shell-events'
import { createWsBridge, fetchDownlink, type WebSocketLike, type WsBridge } from '../renderer/src/lib/transport-ws'
import { parseWebArgs } from './cli-args'
import { startWebShell, type WebShell } from './server'
import { resolveStaticPath } from './static-files'

/** GET with a chosen Host header (fetch does not let a test set it). */
function get(origin: string, path: string, host?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const url = new URL(path, origin)
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers: host ? { host } : {} }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('web shell', () => {
  let shell: WebShell
  let rendererDir: string

  beforeAll(async () => {
    // A stand-in bundle: these tests are about serving and the transport, not the build.
    rendererDir = await mkdtemp(join(tmpdir(), 'cloud-tray-renderer-'))
    await mkdir(join(rendererDir, 'assets'))
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Cloud Tray</title>')
    await writeFile(join(rendererDir, 'assets', 'app.js'), 'export {}')
    shell = await startWebShell({ rendererDir, emulator: { bootMs: 200 } })
  })

  afterAll(async () => {
    await shell?.close()
    await rm(rendererDir, { recursive: true, force: true })
  })

  it('prints a loopback URL carrying a 256-bit secret in the fragment', () => {
    expect(shell.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#secret=[0-9a-f]{64}$/)
  })

  it('serves the renderer with its types and security headers, and nothing outside it', async () => {
    const index = await get(shell.origin, '/')
    expect(index.status).toBe(200)
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(index.headers['x-content-type-options']).toBe('nosniff')
    expect(index.headers['cache-control']).toBe('no-store')
    expect((await get(shell.origin, '/assets/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect((await get(shell.origin, '/../package.json')).status).toBe(404)
    expect((await get(shell.origin, '/%2e%2e/package.json')).status).toBe(404)
    expect((await get(shell.origin, '/missing.js')).status).toBe(404)
  })

  it('refuses a foreign Host (DNS rebinding)', async () => {
    const port = new URL(shell.origin).port
    expect((await get(shell.origin, '/', `evil.example:${port}`)).status).toBe(403)
    expect((await get(shell.origin, '/', `localhost:${port}`)).status).toBe(403)
  })

  /** A page: the renderer's own transport, with what the web shell told it about its tray and effects. */
  function page(): { bridge: WsBridge; trays: TrayModel[]; recorded: RecordedEffect[] } {
    const secret = new URL(shell.url).hash.replace('#secret=', '')
    const bridge = createWsBridge({
      origin: shell.origin.replace('http:', 'ws:'),
      secret,
      createSocket: (url, protocols) => new WebSocket(url, protocols, { origin: shell.origin }) as unknown as WebSocketLike,
      openDownlink: fetchDownlink(shell.origin)
    })
    const trays: TrayModel[] = []
    const recorded: RecordedEffect[] = []
    bridge.onShellEvent('tray', (tray) => trays.push(tray))
    bridge.onShellEvent('recorded', (effect) => recorded.push(effect))
    return { bridge, trays, recorded }
  }

  it('answers the contract over the socket and its downlink with the real core, as the web shell', async () => {
    const { bridge } = page()
    try {
      expect(await bridge.invoke('app.info')).toMatchObject({ ok: true, value: { version: expect.any(String) } })
      const profiles = await bridge.invoke('profiles.get')
      // First run: the Sandbox is preselected with its demo account and its own password (#12 item 1).
      expect(profiles.ok && profiles.value.selectedId).toBe('sandbox')
      const { password } = shell.sandbox()
      expect(password).not.toBe('demo')
      expect(profiles.ok && profiles.value.demoPassword).toBe(password)
      // This run's control secret, for tests and curl run by the same user only.
      const secretFile = join(shell.dataDir, 'sandbox', 'control-secret')
      expect(shell.sandbox().controlSecretFile).toBe(secretFile)
      expect(statSync(secretFile).mode & 0o777).toBe(0o600)
      const login = await bridge.invoke('session.login', { profileId: 'sandbox', username: 'demo', password, rememberMe: false })
      expect(login.ok && login.value.status).toBe('signed-in')
      await shell.emulator().seedInstances('demo', 3)
      const list = await bridge.invoke('instances.refresh')
      expect(list.ok && list.value.instances).toHaveLength(3)
    } finally {
      bridge.close()
    }
  })

  it('stands in for Electron on the page: the tray as a panel, effects recorded and listed, each page caught up', async () => {
    const first = page()
    const second = page()
    try {
      // A page is sent the tray as soon as it connects, before any answer of its own.
      expect((await first.bridge.invoke('app.info')).ok).toBe(true)
      expect(first.trays.at(-1)?.items.length).toBeGreaterThan(0)
      expect(await first.bridge.invoke('external.open', { url: 'https://example.com/a' })).toEqual({ ok: true, value: undefined })
      await vi.waitFor(() => expect(first.recorded).toHaveLength(1), { timeout: 10_000 })
      expect(first.recorded[0]).toMatchObject({ kind: 'external-url', detail: 'https://example.com/a' })
      expect(shell.recorded()).toEqual(first.recorded)
      // A page that connects later is sent what it missed.
      const late = page()
      try {
        expect((await late.bridge.invoke('app.info')).ok).toBe(true)
        expect(late.recorded).toEqual(shell.recorded())
        expect(late.trays.at(-1)).toEqual(first.trays.at(-1))
      } finally {
        late.bridge.close()
      }
      await vi.waitFor(() => expect(second.recorded).toEqual(first.recorded), { timeout: 10_000 })
    } finally {
      first.bridge.close()
      second.bridge.close()
    }
  })

  it('removes its temp data dir on close', async () => {
    const other = await startWebShell({ rendererDir, emulator: { bootMs: 200 } })
    expect(existsSync(other.dataDir)).toBe(true)
    await other.close()
    expect(existsSync(other.dataDir)).toBe(false)
  })
})

describe('static paths', () => {
  it('stays inside the root', () => {
    expect(resolveStaticPath('/srv/r', '/')).toBe('/srv/r/index.html')
    expect(resolveStaticPath('/srv/r', '/assets/a.js')).toBe('/srv/r/assets/a.js')
    expect(resolveStaticPath('/srv/r', '/../etc/passwd')).toBeNull()
    expect(resolveStaticPath('/srv/r', '/%2e%2e/etc/passwd')).toBeNull()
    expect(resolveStaticPath('/srv/r', '/a%00b')).toBeNull()
    expect(resolveStaticPath('/srv/r', '/%E0%A4%A')).toBeNull()
  })
})

describe('npm run web arguments', () => {
  it('parses port, base URL and data dir', () => {
    expect(parseWebArgs(['--port', '5123', '--base-url', 'https://hpc-ai.com/api/', '--data-dir', '/tmp/x'])).toEqual({
      reachEnabled: true,
      cliSocket: true,
      port: 5123,
      baseUrl: 'https://hpc-ai.com/api',
      dataDir: '/tmp/x'
    })
    expect(parseWebArgs(['--no-reach']).reachEnabled).toBe(false)
    expect(parseWebArgs(['--no-cli']).cliSocket).toBe(false)
  })

  it('refuses a bad port, a non-http base URL and unknown flags', () => {
    expect(() => parseWebArgs(['--port', '70000'])).toThrow(/--port/)
    expect(() => parseWebArgs(['--base-url', 'ftp://x'])).toThrow(/http/)
    expect(() => parseWebArgs(['--bogus'])).toThrow()
  })
})
