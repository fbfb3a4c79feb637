/**
 * A window's page for scenarios that need a real one (the terminal's Paste): the app's built
 * renderer in headless Chromium, every file of it answered by the app's own app:// handler
 * (its headers, the Content-Security-Policy included), with the app's built preload run in the page against an
 * `ipcRenderer` that forwards to the stand-in's ipcMain as that window's webContents. Main's
 * `webContents.send` to the window comes back into the page in order. Chromium's permissions for
 * the page (clipboard) are what the app's own permission check answers for its page, so the page
 * can do exactly what Electron would let it. It is Chromium, not Electron's renderer: no
 * contextIsolation boundary, no sandboxed renderer process.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from '@playwright/test'
import { chromiumArgs, chromiumExecutable } from '../../e2e/chromium'
import type { StandInApp } from './harness'
import type { WindowView } from './protocol'

// A secure origin, as the app's privileged app:// scheme is to Chromium (Playwright cannot route a
// custom scheme): each request is answered by the app's handler for the same path on app://.
const ORIGIN = 'https://cloud-tray.stand-in'

export interface RendererPage {
  page: Page
  close(): Promise<void>
}

/** Bytes cross page.evaluate as base64 (`{ __bytes }`), everything else as JSON. */
function encode(value: unknown): unknown {
  if (value instanceof Uint8Array) return { __bytes: Buffer.from(value).toString('base64') }
  if (Array.isArray(value)) return value.map(encode)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]))
  return value
}

function bootstrap(preloadSource: string): string {
  return `(() => {
  const listeners = new Map()
  const decode = (value) => {
    if (value && typeof value === 'object' && typeof value.__bytes === 'string') return Uint8Array.from(atob(value.__bytes), (c) => c.charCodeAt(0))
    if (Array.isArray(value)) return value.map(decode)
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]))
    return value
  }
  const electron = {
    contextBridge: { exposeInMainWorld: (key, api) => Object.defineProperty(window, key, { value: Object.freeze(api) }) },
    ipcRenderer: {
      invoke: (channel, input) => window.__standInInvoke(channel, input === undefined ? null : input),
      send: (channel, input) => { void window.__standInSend(channel, input === undefined ? null : input) },
      on: (channel, listener) => { if (!listeners.has(channel)) listeners.set(channel, new Set()); listeners.get(channel).add(listener) },
      removeListener: (channel, listener) => { listeners.get(channel)?.delete(listener) }
    }
  }
  window.__standInDeliver = (channel, payload) => { for (const listener of listeners.get(channel) ?? []) listener({}, decode(payload)) }
  const module = { exports: {} }
  const require = (name) => { if (name === 'electron') return electron; throw new Error('a sandboxed preload can require only electron, not ' + name) }
  ;(function (require, module, exports) {
${preloadSource}
  })(require, module, module.exports)
})()`
}

export async function openRendererPage(app: StandInApp, buildDir: string, window: WindowView): Promise<RendererPage> {
  const browser: Browser = await chromium.launch({
    ...(chromiumExecutable ? { executablePath: chromiumExecutable } : {}),
    args: chromiumArgs
  })
  const context = await browser.newContext({ viewport: { width: 1100, height: 720 } })
  // The app's own page address (app://cloud-tray/index.html), once main has loaded it.
  const pageUrl = await app.until(
    'the app window page loaded',
    async () => (await app.windows()).find((w) => w.id === window.id && w.url)?.url
  )
  const page0 = new URL(pageUrl)
  await context.route(`${ORIGIN}/**`, async (route) => {
    const asked = new URL(route.request().url())
    const answer = await app.request<{ status: number; headers: Record<string, string>; body: string }>(
      'protocolRequest',
      `${page0.protocol}//${page0.host}${asked.pathname}`
    )
    return route.fulfill({ status: answer.status, headers: answer.headers, body: Buffer.from(answer.body, 'base64') })
  })
  // The app's own permission check decides what its page may do, as in Electron.
  const granted: string[] = []
  for (const [electronName, chromiumName] of [
    ['clipboard-read', 'clipboard-read'],
    ['clipboard-sanitized-write', 'clipboard-write']
  ] as const) {
    if (await app.request<boolean>('permission', window.webContentsId, electronName, pageUrl)) granted.push(chromiumName)
  }
  if (granted.length > 0) await context.grantPermissions(granted, { origin: ORIGIN })
  await context.exposeBinding('__standInInvoke', (_source, channel: string, input: unknown) =>
    app.request('invoke', window.webContentsId, channel, input === null ? undefined : input)
  )
  await context.exposeBinding('__standInSend', (_source, channel: string, input: unknown) =>
    app.request('send', window.webContentsId, channel, input === null ? undefined : input)
  )
  await context.addInitScript({ content: bootstrap(readFileSync(join(buildDir, 'preload', 'index.cjs'), 'utf8')) })
  const page = await context.newPage()
  let delivery = Promise.resolve()
  const target = `webContents#${window.webContentsId}`
  const stop = app.onCall((call) => {
    if (call.api !== 'webContents.send' || call.target !== target) return
    const [channel, payload] = call.args
    delivery = delivery
      .then(() =>
        page.evaluate(
          ([c, p]) => (window as unknown as { __standInDeliver(c: unknown, p: unknown): void }).__standInDeliver(c, p),
          [channel, encode(payload)]
        )
      )
      .catch(() => undefined)
  })
  await page.goto(`${ORIGIN}/index.html`)
  return {
    page,
    async close() {
      stop()
      await browser.close()
    }
  }
}
