/**
 * [electron-stand-in] An install a person trusts (issue #23), against the BUILT main process with
 * the recording stand-in for `electron` (scripts/electron-stand-in; what it proves and what only a
 * real Electron run can is in src/main/README.md). Electron itself does not run here.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureStandInBuild } from '../../scripts/electron-stand-in/build'
import { LABEL, type LaunchOptions, type StandInApp } from '../../scripts/electron-stand-in/harness'
import type { WindowView } from '../../scripts/electron-stand-in/protocol'
import { APP_PAGE_URL } from './windows/app-protocol'
import { createRunning, launchWithWindow, signIn } from '../../scripts/electron-stand-in/scenario'
import type { UpdateState } from '../shared/contract-update'
import { sharedTestSigningKey, startEmulator } from '../emulator/index'
import { connectProxy, makePrivateCa, serverCertificate, tlsFront } from './network/testing/private-ca'

let buildDir = ''
let app: StandInApp | undefined
const cleanups: (() => Promise<void> | void)[] = []

beforeAll(async () => {
  buildDir = (await ensureStandInBuild(undefined, (line) => console.log(line))).dir
}, 240_000)

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await app?.stop()
  app = undefined
})

const launch = (options: Omit<LaunchOptions, 'buildDir'> = {}): Promise<{ app: StandInApp; main: WindowView }> =>
  launchWithWindow(buildDir, options, (launched) => (app = launched))

/** The app window once its page has loaded. */
async function loadedPage(app: StandInApp, main: WindowView): Promise<WindowView> {
  return app.until('the app window page loaded', async () => (await app.windows()).find((w) => w.id === main.id && w.url !== ''))
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return (server.address() as AddressInfo).port
}

describe(`${LABEL} security of the installed app`, { timeout: 120_000 }, () => {
  it('a packaged run ignores ELECTRON_RENDERER_URL: its window shows app://cloud-tray, and that page alone speaks the contract', async () => {
    const { app, main } = await launch({ isPackaged: true, env: { ELECTRON_RENDERER_URL: 'http://attacker.example:8080/' } })
    const page = await loadedPage(app, main)
    expect(page.url).toBe(APP_PAGE_URL)
    expect(app.calls.filter((c) => c.api === 'BrowserWindow.loadURL').map((c) => c.args[0])).toEqual([APP_PAGE_URL])
    expect(app.calls.some((c) => JSON.stringify(c.args).includes('attacker.example'))).toBe(false)
    expect(await app.invoke(main.webContentsId, 'app.info')).toMatchObject({ ok: true })
  })

  it('a development run (npm run dev) still follows ELECTRON_RENDERER_URL', async () => {
    const dev = createServer((_request, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>dev</title>'))
    const port = await listen(dev)
    const devUrl = `http://127.0.0.1:${port}/`
    const { app, main } = await launch({ isPackaged: false, env: { ELECTRON_RENDERER_URL: devUrl } })
    expect((await loadedPage(app, main)).url).toBe(devUrl)
    expect(await app.invoke(main.webContentsId, 'app.info')).toMatchObject({ ok: true })
  })

  it("the page comes from the privileged app:// scheme with the fuse off: its fetch('file:///…') of an SSH key is refused", async () => {
    const { app, main } = await launch({ isPackaged: true })
    const page = await loadedPage(app, main)
    expect(new URL(page.url).protocol).toBe('app:')
    expect(await app.request('schemePrivileges')).toMatchObject({ app: { standard: true, secure: true } })
    // The page's header is its whole policy, and the meta tag the build wrote says the same.
    const answer = await app.request<{ status: number; headers: Record<string, string> }>('protocolRequest', APP_PAGE_URL)
    expect(answer.headers['content-security-policy']).toMatch(/connect-src 'self';/)

    const key = join(app.root, 'home', '.ssh', 'id_ed25519')
    mkdirSync(join(app.root, 'home', '.ssh'), { recursive: true })
    writeFileSync(key, '-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key\n')
    const stolen = await app.request<{ ok: boolean; refusedBy?: string }>('pageFetches', main.webContentsId, pathToFileURL(key).href)
    expect(stolen, JSON.stringify(stolen)).toMatchObject({ ok: false })
    // Its own files it can still fetch, and nothing outside the built folder through its scheme.
    expect(await app.request('pageFetches', main.webContentsId, 'app://cloud-tray/index.html')).toMatchObject({ ok: true, status: 200 })
    expect(await app.request('pageFetches', main.webContentsId, 'app://cloud-tray/../../main/index.js')).toMatchObject({ ok: false })
  })
})

describe(`${LABEL} a company network`, { timeout: 120_000 }, () => {
  it('signs in to an API reachable only through the proxy Chromium names, trusting the root only the OS store holds', async () => {
    const emulator = await startEmulator({ signingKeyPem: await sharedTestSigningKey() })
    cleanups.push(() => emulator.close())
    const ca = await makePrivateCa()
    const front = await tlsFront(emulator.baseUrl, await serverCertificate(ca, 'cloud.test'))
    cleanups.push(() => front.close())
    const proxy = await connectProxy()
    cleanups.push(() => proxy.close())
    const profiles = {
      userProfiles: [{ id: 'user-corp', name: 'Corp', baseUrl: `https://cloud.test:${front.port}/api` }],
      selectedId: 'user-corp',
      lastUsernames: {},
      remembered: null
    }
    // The OS store (what `update-ca-certificates` keeps; OpenSSL's SSL_CERT_FILE points at it) holds the company root.
    const store = mkdtempSync(join(tmpdir(), 'os-store-'))
    cleanups.push(() => rmSync(store, { recursive: true, force: true }))
    writeFileSync(join(store, 'ca-certificates.crt'), ca.certPem)
    const { app, main } = await launch({
      isPackaged: true,
      dataFiles: { 'profiles.json': JSON.stringify(profiles) },
      env: { HTTPS_PROXY: proxy.url, NO_PROXY: 'internal.example', SSL_CERT_FILE: join(store, 'ca-certificates.crt') }
    })
    await loadedPage(app, main)
    const signedIn = await app.invoke(main.webContentsId, 'session.login', {
      profileId: 'user-corp',
      username: 'demo',
      password: 'demo',
      rememberMe: false
    })
    expect(signedIn, JSON.stringify(signedIn)).toMatchObject({ ok: true, value: { status: 'signed-in' } })
    expect(proxy.tunnels).toContain(`cloud.test:${front.port}`)
    expect(app.calls.some((c) => c.api === 'session.resolveProxy' && String(c.args[0]).startsWith('https://cloud.test'))).toBe(true)
  })
})

describe(`${LABEL} the keychain on every desktop`, { timeout: 120_000 }, () => {
  it.skipIf(process.platform !== 'linux')(
    'Linux without a Secret Service: "Remember me" is not promised, and the sign-in says why (never the kernel keyring)',
    async () => {
      const { app, main } = await launch({ isPackaged: true, keychain: 'no-secret-service' })
      await loadedPage(app, main)
      await signIn(app, main, true)
      expect(await app.invoke(main.webContentsId, 'session.get')).toMatchObject({
        ok: true,
        value: { status: 'signed-in', remembered: false, keychain: 'unavailable' }
      })
      const warning = app.events(main.webContentsId, 'warning').find((w) => w.id === 'keychain-unavailable')
      expect(warning?.message).toMatch(/No Secret Service/)
      expect(app.calls.some((c) => c.api.startsWith('keyring.') && c.args.includes('kernel-keyring'))).toBe(false)
    }
  )

  it('a build without the keychain binary starts, signs in, and says "Remember me" cannot remember', async () => {
    const { app, main } = await launch({ isPackaged: true, keychain: 'module-missing' })
    await loadedPage(app, main)
    await signIn(app, main, true)
    expect(await app.invoke(main.webContentsId, 'session.get')).toMatchObject({ ok: true, value: { remembered: false } })
    expect(app.events(main.webContentsId, 'warning').find((w) => w.id === 'keychain-unavailable')?.message).toMatch(/no keychain support/)
    expect(app.calls.some((c) => c.api === 'electron.uncaughtException')).toBe(false)
  })
})

describe(`${LABEL} a Linux desktop without tray icons (vanilla GNOME)`, { timeout: 120_000 }, () => {
  it.skipIf(process.platform !== 'linux')(
    'closing minimizes instead of hiding, says once how to get the tray, the window has Quit, and a second launch shows it',
    async () => {
      const { app, main } = await launch({ isPackaged: true, statusNotifierHost: false })
      await loadedPage(app, main)
      await app.closeWindow(main.id)
      await app.waitForCall((c) => c.api === 'BrowserWindow.minimize' && c.target === `window#${main.id}`, 'the window minimized')
      const told = await app.dialog(/keeps running, minimized/)
      expect(told.detail).toMatch(/AppIndicator/)
      expect(told.windowId).toBe(main.id)
      await app.answerDialog(told, 'OK')
      expect(app.calls.some((c) => c.api === 'BrowserWindow.hide')).toBe(false)
      expect((await app.windows()).find((w) => w.id === main.id)).toMatchObject({ visible: true, minimized: true })
      // Said once: a second close minimizes without asking again.
      const mark = app.calls.at(-1)!.seq
      await app.closeWindow(main.id)
      await app.waitForCall((c) => c.seq > mark && c.api === 'BrowserWindow.minimize', 'minimized again')
      expect(app.calls.filter((c) => c.api === 'dialog.showMessageBox')).toHaveLength(1)
      // Quit is in the window's menu, as there is no tray to hold it.
      expect(JSON.stringify(await app.applicationMenu())).toMatch(/"role":"quit"/)
      // Launching the app again brings the window back.
      const again = app.calls.at(-1)!.seq
      await app.secondInstance()
      await app.waitForCall((c) => c.seq > again && c.api === 'BrowserWindow.restore', 'the window restored by a second launch')
      expect((await app.windows()).find((w) => w.id === main.id)).toMatchObject({ visible: true, minimized: false })
    }
  )

  it.skipIf(process.platform !== 'linux')('with a StatusNotifier host, closing hides to the tray as before', async () => {
    const { app, main } = await launch({ isPackaged: true, statusNotifierHost: true })
    await loadedPage(app, main)
    await app.closeWindow(main.id)
    await app.waitForCall((c) => c.api === 'BrowserWindow.hide' && c.target === `window#${main.id}`, 'the window hidden')
    expect(app.calls.some((c) => c.api === 'BrowserWindow.minimize')).toBe(false)
  })
})

/** An update feed as electron-builder publishes it (electron-updater's generic provider), on loopback. */
async function updateFeed(version: string, file: Buffer, publishedSha512: string): Promise<{ url: string; asked: string[] }> {
  const name = `cloud-tray_${version}_amd64.deb`
  const yml = [
    `version: ${version}`,
    'files:',
    `  - url: ${name}`,
    `    sha512: ${publishedSha512}`,
    `    size: ${file.length}`,
    `path: ${name}`,
    `sha512: ${publishedSha512}`,
    "releaseDate: '2026-11-26T00:00:00.000Z'",
    ''
  ].join('\n')
  const asked: string[] = []
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://feed').pathname
    asked.push(path)
    if (path.endsWith('.yml')) return response.writeHead(200, { 'Content-Type': 'text/yaml' }).end(yml)
    if (path === `/${name}`)
      return response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': file.length }).end(file)
    response.writeHead(404).end()
  })
  const port = await listen(server)
  return { url: `http://127.0.0.1:${port}/`, asked }
}

/** The resources folder of a deb install whose app-update.yml points at `feed` (electron-builder writes both). */
const debInstall = (feed: string): Record<string, string> => ({
  'app-update.yml': `provider: generic\nurl: ${feed}\nupdaterCacheDirName: cloud-tray-updater\n`,
  'package-type': 'deb\n'
})

async function updateState(app: StandInApp, main: WindowView, status: string, timeoutMs = 30_000): Promise<UpdateState> {
  return app.until(
    `the update ${status}`,
    async () => {
      const state = await app.invoke(main.webContentsId, 'update.get')
      return state.ok && state.value.status === status ? state.value : undefined
    },
    timeoutMs
  )
}

describe(`${LABEL} updates from a local feed (electron-updater, generic provider)`, { timeout: 180_000 }, () => {
  const skip =
    process.platform !== 'linux' &&
    'the update scenarios model the deb updater (NSIS and Squirrel.Mac verify a code signature a test build lacks)'
  if (skip) console.log(`${LABEL} skipped: ${skip}`)

  it.skipIf(Boolean(skip))(
    'a newer version is found at start, downloaded, verified and staged; "Restart to update" waits while a terminal is open',
    async () => {
      const file = randomBytes(200_000)
      const feed = await updateFeed('9.9.9', file, createHash('sha512').update(file).digest('base64'))
      const { app, main } = await launch({ isPackaged: true, resources: debInstall(feed.url) })
      await loadedPage(app, main)
      const ready = await updateState(app, main, 'ready')
      expect(ready).toMatchObject({ version: '9.9.9', current: expect.any(String), channel: 'stable' })
      expect(feed.asked).toContain('/cloud-tray_9.9.9_amd64.deb')
      // Staged: the verified file waits in the updater's cache for the restart.
      const pending = join(app.root, 'cache', 'cloud-tray-updater', 'pending')
      const staged = readdirSync(pending).filter((f) => f.endsWith('.deb'))
      expect(staged).toHaveLength(1)
      expect(readFileSync(join(pending, staged[0]!)).equals(file)).toBe(true)
      // The tray offers the restart.
      await app.until('the tray offers the restart', async () =>
        JSON.stringify(await app.trayMenu()).includes('Restart to update (9.9.9)') ? true : undefined
      )

      // A terminal is open: the restart waits and says why, and nothing quits.
      await signIn(app, main)
      const instanceId = await createRunning(app, main, 'R&D update-waits')
      // An & in an instance's name is shown as written, not taken as a mnemonic (Windows, Linux).
      await app.until('the instance in the tray menu', async () =>
        JSON.stringify(await app.trayMenu()).includes('"label":"R&D update-waits — ') ? true : undefined
      )
      const opened = await app.invoke(main.webContentsId, 'ssh.open', { instanceId, cols: 80, rows: 24 })
      expect(opened.ok, JSON.stringify(opened)).toBe(true)
      const asked = await app.invoke(main.webContentsId, 'update.restart', { anyway: false })
      expect(asked).toMatchObject({ ok: true, value: { status: 'ready', waitingFor: { terminals: 1 } } })
      await new Promise((resolve) => setTimeout(resolve, 2_500))
      expect(app.alive).toBe(true)
      expect(app.calls.some((c) => c.api === 'autoUpdater.emit' || c.api === 'app.quit')).toBe(false)
      expect(JSON.stringify(await app.trayMenu())).toContain('Update 9.9.9 waits for open sessions')
    }
  )

  it.skipIf(Boolean(skip))('a feed whose sha512 does not match the file: refused with a message, nothing staged', async () => {
    const file = randomBytes(100_000)
    const wrong = createHash('sha512')
      .update(Buffer.concat([file, Buffer.from('tampered')]))
      .digest('base64')
    const feed = await updateFeed('9.9.9', file, wrong)
    const { app, main } = await launch({ isPackaged: true, resources: debInstall(feed.url) })
    await loadedPage(app, main)
    const failed = await updateState(app, main, 'failed')
    expect(failed.error).toMatch(/did not match its published checksum/)
    expect(feed.asked).toContain('/cloud-tray_9.9.9_amd64.deb')
    const pending = join(app.root, 'cache', 'cloud-tray-updater', 'pending')
    const left = existsSync(pending) ? readdirSync(pending).filter((f) => !f.endsWith('.json')) : []
    expect(left).toEqual([])
    expect(JSON.stringify(await app.trayMenu())).not.toContain('Restart to update')
    // A quiet line, never a dialog.
    expect(app.calls.filter((c) => c.api.startsWith('dialog.')).map((c) => JSON.stringify(c.args).slice(0, 300))).toEqual([])
  })
})
