/**
 * [electron-stand-in] The first launch on a desktop (issue #14), against the BUILT main process
 * (out/electron-stand-in/<hash>/main/index.js, the same electron-vite build as `npm run build`)
 * with a recording stand-in in place of the `electron` module (scripts/electron-stand-in). It is a
 * stand-in, not Electron: what it proves and what only a real Electron run can is in
 * src/main/README.md; the specs in e2e/electron/ run the same app in Electron where it exists.
 * The Sandbox, its SSH servers and notebook pages, sockets and files are all real.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from '@playwright/test'
import { ensureStandInBuild } from '../../scripts/electron-stand-in/build'
import { LABEL, launchStandIn, type LaunchOptions, type StandInApp } from '../../scripts/electron-stand-in/harness'
import type { MenuItemView, WindowView } from '../../scripts/electron-stand-in/protocol'
import { openRendererPage, type RendererPage } from '../../scripts/electron-stand-in/renderer-page'
import { createRunning, launchWithWindow, sandboxPassword, signIn } from '../../scripts/electron-stand-in/scenario'
import { chromiumMissing } from '../../e2e/chromium'
import type { TerminalStatus } from '../shared/contract-ssh'
import { EMBEDDED_SANDBOX_ORIGIN } from './account/session-origin'
import { trayClickOpensWindow } from './windows/desktop-integration'
import { FOCUS_GRACE_MS } from './windows/second-launch'
import { posixShellMissing, skipBecause } from '../shared/node/testing/platform-support'
import { runCli } from '../cli/testing/built-cli'
import { keyDown } from './notebook/testing/key-down'

let buildDir = ''
let app: StandInApp | undefined
let rendererPage: RendererPage | undefined

beforeAll(async () => {
  const build = await ensureStandInBuild(undefined, (line) => console.log(line))
  buildDir = build.dir
  console.log(
    `${LABEL} these scenarios run the built main process (${join(buildDir, 'main', 'index.js')}) with a recording stand-in for Electron; Electron itself does not run here.`
  )
}, 240_000)

afterEach(async () => {
  await rendererPage?.close()
  rendererPage = undefined
  await app?.stop()
  app = undefined
})

const launch = (options: Omit<LaunchOptions, 'buildDir'> = {}): Promise<{ app: StandInApp; main: WindowView }> =>
  launchWithWindow(buildDir, options, (launched) => (app = launched))

async function openNotebook(app: StandInApp, main: WindowView, instanceId: string): Promise<WindowView> {
  const opened = await app.invoke(main.webContentsId, 'notebook.open', { instanceId })
  expect(opened, JSON.stringify(opened)).toMatchObject({ ok: true })
  return app.until('notebook window with its page loaded', async () =>
    (await app.windows()).find((w) => w.partition !== '' && w.status !== undefined)
  )
}

const roles = (items: readonly MenuItemView[] | null): string[] =>
  (items ?? []).flatMap((item) => [...(item.role ? [item.role.toLowerCase()] : []), ...roles(item.submenu ?? null)])

const PROFILES_REMEMBERING_DEMO = JSON.stringify({
  userProfiles: [],
  selectedId: 'sandbox',
  lastUsernames: { sandbox: 'demo' },
  remembered: { profileId: 'sandbox', username: 'demo', expiresAt: Date.now() + 86_400_000, origin: EMBEDDED_SANDBOX_ORIGIN }
})

const AUTOSTART = 'autostart/cloud-tray.desktop'
const AUTOSTART_ENTRY = '[Desktop Entry]\nType=Application\nName=Cloud Tray\nExec="/opt/Cloud Tray/cloud-tray" --hidden\n'

describe(`${LABEL} first launch on a desktop`, { timeout: 120_000 }, () => {
  it("turns off Chromium's deferral of a page's tasks after a key press, before ready (it held every terminal echo back a frame)", async () => {
    const { app } = await launch()
    const ready = await app.waitForCall((c) => c.api === 'event:ready', 'ready')
    const switched = app.calls.filter((c) => c.api === 'app.commandLine.appendSwitch' && c.args[0] === 'disable-features')
    expect(switched.map((c) => c.args)).toEqual([
      ['disable-features', expect.stringMatching(/(^|,)DeferRendererTasksAfterInput(,|$)/), { afterReady: false }]
    ])
    expect(switched[0]!.seq).toBeLessThan(ready.seq)
  })

  it('a keychain that never answers: the window and tray menu come within 2 s, then "waiting for the keychain" (never given up); a tray click shows the window', async () => {
    const { app, main } = await launch({ keychain: 'never-answers', dataFiles: { 'profiles.json': PROFILES_REMEMBERING_DEMO } })
    const ready = await app.waitForCall((c) => c.api === 'event:ready', 'ready')
    const shown = await app.waitForCall((c) => c.api === 'BrowserWindow.show', 'the app window shown', 15_000)
    const menu = await app.waitForCall((c) => c.api === 'Tray.setContextMenu', 'a tray menu', 15_000)
    expect(shown.at - ready.at).toBeLessThan(2_000)
    expect(menu.at - ready.at).toBeLessThan(2_000)
    // The remembered session sends the app to the keychain, which never answers: the app says so.
    await app.waitForCall((c) => c.api === 'keyring.getPassword', 'a keychain read for the remembered session')
    // It may be waiting for the user (an unlock prompt): never given up, and the app says it waits.
    const warning = await app.until(
      'the keychain-waiting notice',
      async () => {
        const warnings = await app.invoke(main.webContentsId, 'warnings.get')
        return warnings.ok ? warnings.value.find((w) => w.id === 'keychain-waiting') : undefined
      },
      20_000
    )
    expect(warning.message).toMatch(/waiting for the system keychain/i)
    expect(app.events(main.webContentsId, 'warning').map((w) => w.id)).not.toContain('keychain-unavailable')
    // The window still works: signing in needs no keychain.
    await signIn(app, main)

    // Windows and Linux: a click on the tray icon (on Linux, the StatusNotifierItem's activation)
    // brings the window back. macOS opens the tray menu instead.
    await app.closeWindow(main.id)
    await app.until('the window hidden', async () =>
      (await app.windows()).find((w) => w.id === main.id)?.visible === false ? true : undefined
    )
    const mark = app.calls.at(-1)!.seq
    await app.request('clickTray')
    if (trayClickOpensWindow(process.platform)) {
      await app.waitForCall(
        (c) => c.seq > mark && c.api === 'BrowserWindow.show' && c.target === `window#${main.id}`,
        'the window shown by a tray click'
      )
    } else {
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(app.calls.some((c) => c.seq > mark && c.api === 'BrowserWindow.show')).toBe(false)
    }
  })

  it('a start-up failure shows an error dialog and quits, instead of nothing', async () => {
    // The data folder cannot be created: a file is in its place.
    app = await launchStandIn({ buildDir, userDataIsFile: true })
    const box = await app.waitForCall(
      (c) => c.api === 'dialog.showErrorBox' && c.args[0] !== 'A JavaScript error occurred in the main process',
      "the app's own error dialog",
      15_000
    )
    expect(box.args[0]).toBe('Cloud Tray could not start')
    expect(String(box.args[1])).toContain(app.dataDir)
    expect(String(box.args[1])).toMatch(/could not use that folder/)
    expect(await app.exited).not.toBe(0)
  })

  it('sign in → create → notebook with a pop-up → sign out: no notebook window and no AccessToken cookie remain', async () => {
    const { app, main } = await launch({ configFiles: { [AUTOSTART]: AUTOSTART_ENTRY } })
    await signIn(app, main)
    const instanceId = await createRunning(app, main, 'stand-in-notebook')
    const notebook = await openNotebook(app, main, instanceId)
    expect(notebook.status, 'the notebook page answers the window signed in').toBe(200)
    // Our own "opening" page first (the window is never blank while the server has not answered),
    // then the notebook; shown once, when its page was ready; Back cannot return to "opening".
    const notebookWindow = `window#${notebook.id}`
    const loads = app.calls.filter((c) => c.api === 'BrowserWindow.loadURL' && c.target === notebookWindow).map((c) => String(c.args[0]))
    expect(loads.map((url) => (url.startsWith('data:') ? 'data:' : url))).toEqual(['data:', notebook.url])
    expect(decodeURIComponent(loads[0]!)).toContain('Opening the notebook of stand-in-notebook')
    await app.waitForCall((c) => c.api === 'BrowserWindow.show' && c.target === notebookWindow, 'the notebook window shown')
    expect(app.calls.filter((c) => c.api === 'BrowserWindow.show' && c.target === notebookWindow)).toHaveLength(1)
    expect(
      app.calls.some((c) => c.api === 'webContents.navigationHistory.clear' && c.target === `webContents#${notebook.webContentsId}`)
    ).toBe(true)
    // Ctrl (⌘ on macOS) with = zooms by Chromium's step; a plain key is the page's.
    const accelerator = process.platform === 'darwin' ? { meta: true, control: false } : { control: true, meta: false }
    const key = (key: string, modifiers = {}): Promise<{ prevented: boolean; zoomFactor: number }> =>
      app.request('pageKey', notebook.webContentsId, keyDown(key, modifiers))
    expect(await key('=', accelerator)).toEqual({ prevented: true, zoomFactor: 1.1 })
    expect(await key('a')).toEqual({ prevented: false, zoomFactor: 1.1 })
    expect(await key('0', accelerator)).toEqual({ prevented: true, zoomFactor: 1 })
    // The notebook opens another view of itself in a pop-up (JupyterLab's "Open in New Browser Tab").
    const popup = await app.request<{ action: string; windowId?: number }>(
      'pageOpensWindow',
      notebook.webContentsId,
      `${notebook.url}?view=console`
    )
    expect(popup.action).toBe('allow')
    await app.until('the pop-up loaded', async () =>
      (await app.windows()).find((w) => w.id === popup.windowId)?.status === 200 ? true : undefined
    )
    expect((await app.cookies()).filter((c) => c.name === 'AccessToken').map((c) => c.partition)).toEqual([notebook.partition])

    const out = await app.invoke(main.webContentsId, 'session.logout')
    expect(out).toMatchObject({ ok: true, value: { status: 'signed-out' } })
    await app.until('every notebook window closed', async () => ((await app.windows()).every((w) => w.partition === '') ? true : undefined))
    expect((await app.windows()).map((w) => w.id)).toEqual([main.id])
    expect(await app.cookies(), 'no AccessToken cookie in any partition').toEqual([])
    expect(
      app.calls.some((c) => c.api === 'session.clearStorageData' && c.target === `session:${notebook.partition}`),
      "the partition's storage is cleared"
    ).toBe(true)

    // An unpackaged run (npm start, the e2e specs) leaves the installed app's autostart entry alone.
    expect(readFileSync(join(app.configHome, AUTOSTART), 'utf8')).toBe(AUTOSTART_ENTRY)
  })

  it('a notebook whose page refuses to unload: Quit and sign-out ask, "Stay" keeps everything, the window still hides on close; Quit again leaves', async () => {
    const { app, main } = await launch()
    await signIn(app, main)
    const instanceId = await createRunning(app, main, 'stand-in-unsaved')
    const notebook = await openNotebook(app, main, instanceId)
    await app.request('pageRefusesUnload', notebook.webContentsId, true)

    await app.clickTrayItem('Quit')
    const ask = await app.dialog(/unsaved|not be saved/i)
    expect(ask.buttons).toContain('Stay')
    // Asked from the tray with no window focused: attached to the app window, shown in front.
    expect(ask.windowId).toBe(main.id)
    await app.answerDialog(ask, 'Stay')
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(app.alive).toBe(true)
    expect(app.calls.some((c) => c.api === 'event:will-quit')).toBe(false)
    expect((await app.windows()).map((w) => w.id).sort()).toEqual([main.id, notebook.id].sort())
    expect(await app.invoke(main.webContentsId, 'session.get')).toMatchObject({ ok: true, value: { status: 'signed-in' } })

    // Signing out asks too, once; "Stay" keeps the user signed in and the notebook open.
    const signingOut = app.invoke(main.webContentsId, 'session.logout')
    const askOut = await app.dialog(/Sign out of Cloud Tray/)
    await app.answerDialog(askOut, 'Stay')
    expect(await signingOut).toMatchObject({ ok: true, value: { status: 'signed-in' } })
    expect((await app.windows()).some((w) => w.id === notebook.id)).toBe(true)

    // The quit is over: closing the app window hides it to the tray again.
    const mark = app.calls.at(-1)!.seq
    await app.closeWindow(main.id)
    await app.waitForCall(
      (c) => c.seq > mark && c.api === 'BrowserWindow.hide' && c.target === `window#${main.id}`,
      'the app window hidden'
    )
    expect((await app.windows()).find((w) => w.id === main.id)).toMatchObject({ visible: false })

    // Quit once more and leave: the notebook goes, then the app quits in Electron's order.
    await app.clickTrayItem('Quit')
    const again = await app.dialog(/unsaved|not be saved/i)
    await app.answerDialog(
      again,
      again.buttons.find((b) => b !== 'Stay')!
    )
    expect(await app.exited).toBe(0)
    const order = app.calls
      .filter((c) => c.seq > mark && ['event:before-quit', 'event:will-quit', 'event:quit'].includes(c.api))
      .map((c) => c.api)
    expect(order.slice(-2)).toEqual(['event:will-quit', 'event:quit'])
  })

  it('the Sandbox terminal with a shell that cannot start shows why and does not reconnect', async () => {
    const { app, main } = await launch({ ptySpawnFails: true })
    await signIn(app, main)
    const instanceId = await createRunning(app, main, 'stand-in-no-shell')
    const opened = await app.invoke(main.webContentsId, 'ssh.open', { instanceId, cols: 80, rows: 24 })
    if (!opened.ok) throw new Error(JSON.stringify(opened))
    const { terminalId } = opened.value
    const prompt = await app.until('the host-key question', () => app.events(main.webContentsId, 'ssh.prompt')[0], 20_000)
    await app.invoke(main.webContentsId, 'ssh.answer', { promptId: prompt.promptId, answer: { kind: 'host-key', decision: 'accept-once' } })
    const statuses = (): TerminalStatus[] => app.events(main.webContentsId, 'ssh.status').filter((s) => s.terminalId === terminalId)
    const ended = await app.until('the terminal to end', () => statuses().find((s) => s.state === 'closed' || s.state === 'failed'), 20_000)
    const decoder = new TextDecoder()
    const shown = app
      .events(main.webContentsId, 'ssh.data')
      .filter((d) => d.terminalId === terminalId)
      .map((d) => decoder.decode(d.data, { stream: true }))
      .join('')
    expect(`${shown}\n${ended.message}`).toMatch(/could not start/i)
    expect(ended.message).toMatch(/exit 127/)
    // Nothing retries by itself once the shell has ended: no reconnecting, no new connection.
    // (Before it, a refused first connect to an instance whose SSH server is still starting is
    // retried, as it should be.)
    const endedAt = statuses().indexOf(ended)
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    expect(statuses().slice(endedAt + 1)).toEqual([])
  })

  it('serves cloud-tray (the command line) on its socket, and takes the socket away at Quit', async () => {
    const { app, main } = await launch()
    await signIn(app, main)
    // The harness gives the app CLOUD_TRAY_RUNTIME_DIR in this run's own home.
    const runtimeDir = join(app.root, 'home', 'run')
    const listed = await app.until(
      'cloud-tray list to answer',
      async () => {
        const run = await runCli(['list', '--json'], { runtimeDir })
        return run.code === 0 ? run : undefined
      },
      30_000
    )
    expect(JSON.parse(listed.stdout)).toMatchObject({ version: 1, instances: [] })
    await app.clickTrayItem('Quit')
    expect(await app.exited).toBe(0)
    expect(existsSync(join(runtimeDir, 'cli.sock'))).toBe(false)
    expect(await runCli(['list'], { runtimeDir })).toMatchObject({ code: 7 })
  })

  it("an upload holds Electron's prevent-app-suspension blocker while it runs, and stops it when it ends", async () => {
    const { app, main } = await launch()
    await signIn(app, main)
    const instanceId = await createRunning(app, main, 'stand-in-upload')
    const opened = await app.invoke(main.webContentsId, 'files.open', { instanceId })
    if (!opened.ok) throw new Error(JSON.stringify(opened))
    const { sessionId } = opened.value
    const prompt = await app.until('the host-key question', () => app.events(main.webContentsId, 'ssh.prompt')[0], 20_000)
    await app.invoke(main.webContentsId, 'ssh.answer', { promptId: prompt.promptId, answer: { kind: 'host-key', decision: 'accept-once' } })
    const connected = await app.until(
      'the files panel connected',
      () => app.events(main.webContentsId, 'files.status').find((s) => s.sessionId === sessionId && s.state === 'connected'),
      20_000
    )
    expect(
      app.calls.some((c) => c.api.startsWith('powerSaveBlocker.')),
      'nothing held before a transfer'
    ).toBe(false)

    const data = new Uint8Array(200_000).fill(42)
    const upload = await app.invoke(main.webContentsId, 'files.upload', {
      sessionId,
      folder: connected.home,
      items: [{ path: 'awake.bin', kind: 'file', size: data.byteLength }],
      replace: true
    })
    if (!upload.ok) throw new Error(JSON.stringify(upload))
    const { transferId } = upload.value
    const started = await app.waitForCall((c) => c.api === 'powerSaveBlocker.start', 'the blocker started')
    expect(started.args[0]).toBe('prevent-app-suspension')
    expect(await app.request('powerBlockers')).toEqual({ [String(started.args[1])]: 'prevent-app-suspension' })
    await app.send(main.webContentsId, 'files.chunk', { transferId, item: 0, offset: 0, data })
    const done = await app.until(
      'the upload done',
      () => app.events(main.webContentsId, 'files.transfer').find((p) => p.transferId === transferId && p.state !== 'running'),
      20_000
    )
    expect(done.state).toBe('done')
    const stopped = await app.waitForCall((c) => c.api === 'powerSaveBlocker.stop', 'the blocker stopped')
    expect(stopped.args).toEqual([started.args[1]])
    const told = app.calls.find((c) => c.api === 'webContents.send' && (c.args[1] as { state?: string } | undefined)?.state === 'done')
    expect(stopped.seq, 'held until the window was told the upload is done').toBeGreaterThan(told!.seq)
    expect(await app.request('powerBlockers')).toEqual({})
    expect(app.calls.filter((c) => c.api === 'powerSaveBlocker.start')).toHaveLength(1)
  })

  it("the theme picked in Settings reaches Electron's nativeTheme before the window shows, and each change after", async () => {
    const { app, main } = await launch({ dataFiles: { 'settings.json': JSON.stringify({ theme: 'dark' }) } })
    const shown = await app.waitForCall((c) => c.api === 'BrowserWindow.show', 'the app window shown', 15_000)
    const atStart = app.calls.filter((c) => c.api === 'nativeTheme.themeSource')
    expect(atStart.map((c) => c.args)).toEqual([['dark']])
    expect(atStart[0]!.seq, 'set before the window shows').toBeLessThan(shown.seq)
    const changed = await app.invoke(main.webContentsId, 'settings.update', { theme: 'light' })
    expect(changed).toMatchObject({ ok: true, value: { theme: 'light' } })
    await app.waitForCall((c) => c.api === 'nativeTheme.themeSource' && c.args[0] === 'light', 'the light theme set')
    // Another setting saved leaves the theme alone.
    await app.invoke(main.webContentsId, 'settings.update', { openWindowAtStart: false })
    await app.invoke(main.webContentsId, 'settings.update', { theme: 'system' })
    await app.waitForCall((c) => c.api === 'nativeTheme.themeSource' && c.args[0] === 'system', 'the system theme set')
    expect(app.calls.filter((c) => c.api === 'nativeTheme.themeSource').map((c) => c.args[0])).toEqual(['dark', 'light', 'system'])
  })

  it('a second launch under Wayland, its window left unfocused by the compositor: shown, then a notification says where the app is', async () => {
    const { app } = await launch({ env: { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0' } })
    await app.waitForCall((c) => c.api === 'BrowserWindow.show', 'the app window shown', 15_000)
    const mark = app.calls.at(-1)!.seq
    await app.secondInstance()
    const launched = await app.waitForCall((c) => c.seq > mark && c.api === 'event:second-instance', 'the second launch')
    await app.waitForCall((c) => c.seq > mark && c.api === 'BrowserWindow.focus', 'the window shown and focused')
    // The stand-in's window never has the focus: as a compositor that refused it.
    const told = await app.waitForCall((c) => c.seq > mark && c.api === 'Notification.new', 'the notification', FOCUS_GRACE_MS + 5_000)
    expect(told.args[0]).toMatchObject({ title: 'Cloud Tray', body: 'Cloud Tray is already running — open it from the tray icon.' })
    expect(told.at - launched.at).toBeGreaterThanOrEqual(FOCUS_GRACE_MS - 50)
    await app.waitForCall((c) => c.api === 'Notification.show' && c.target === told.target, 'the notification shown')
  })

  it('a second launch outside Wayland shows the window and says nothing', async () => {
    const { app } = await launch({ env: { XDG_SESSION_TYPE: 'x11', WAYLAND_DISPLAY: '' } })
    await app.waitForCall((c) => c.api === 'BrowserWindow.show', 'the app window shown', 15_000)
    const mark = app.calls.at(-1)!.seq
    await app.secondInstance()
    await app.waitForCall((c) => c.seq > mark && c.api === 'BrowserWindow.focus', 'the window shown and focused')
    await new Promise((resolve) => setTimeout(resolve, FOCUS_GRACE_MS + 500))
    expect(app.calls.filter((c) => c.seq > mark && c.api === 'Notification.new')).toEqual([])
  })

  it('a packaged run: an application menu without Reload or DevTools', async () => {
    const { app } = await launch({ isPackaged: true })
    await app.waitForCall((c) => c.api === 'BrowserWindow.show', 'the app window shown', 15_000)
    const menu = await app.applicationMenu()
    expect(
      app.calls.some((c) => c.api === 'Menu.setApplicationMenu'),
      'the app sets its own menu'
    ).toBe(true)
    for (const role of ['reload', 'forcereload', 'toggledevtools']) expect(roles(menu)).not.toContain(role)
    // macOS keeps Quit and the editing roles (copy and paste in the window need them there).
    if (process.platform === 'darwin') expect(roles(menu)).toEqual(expect.arrayContaining(['quit', 'copy', 'paste']))
  })

  it.skipIf(skipBecause(posixShellMissing() ?? chromiumMissing(), 'the stand-in Paste scenario'))(
    'Paste in the terminal reaches the shell; a crashed page releases its SSH sessions',
    async () => {
      const { app, main } = await launch({ isPackaged: true })
      rendererPage = await openRendererPage(app, buildDir, main)
      const page = rendererPage.page
      // Chromium holds the page to the policy the app's app:// handler sends: a fetch of a local
      // file is refused under connect-src (the file:// page's 'self' used to allow it).
      const fileFetch = await page.evaluate(async () => {
        const violated: string[] = []
        const doc = (globalThis as unknown as { document: EventTarget }).document
        doc.addEventListener('securitypolicyviolation', (event) =>
          violated.push((event as Event & { effectiveDirective: string }).effectiveDirective)
        )
        const outcome = await fetch('file:///etc/hostname').then(
          () => 'read',
          () => 'refused'
        )
        await new Promise((resolve) => setTimeout(resolve, 100))
        return { outcome, violated }
      })
      // Reported once per policy the page carries: the header and the meta tag the build wrote.
      expect(fileFetch).toEqual({ outcome: 'refused', violated: ['connect-src', 'connect-src'] })
      await page.getByLabel('User name').fill('demo')
      // The page opened before the Sandbox had started: its password is filled in when it has.
      const password = await sandboxPassword(app, main)
      const field = page.getByLabel('Password', { exact: true })
      await app.until('the Sandbox password filled in', async () => ((await field.inputValue()) === password ? true : undefined))
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { name: 'Instances', exact: true }).waitFor({ timeout: 15_000 })
      await createRunning(app, main, 'stand-in-paste')
      const row = page.getByRole('row', { name: /stand-in-paste/ })
      await row.getByRole('button', { name: /terminal/i }).click()
      const hostKey = page.getByRole('dialog', { name: 'Unknown host key' })
      await hostKey.getByRole('button', { name: 'Accept and remember' }).click({ timeout: 20_000 })
      await page
        .getByRole('status')
        .filter({ hasText: /^Connected$/ })
        .waitFor({ timeout: 20_000 })

      await app.request('setClipboard', 'echo pasted-$((6*7))')
      await page.getByRole('button', { name: 'Paste', exact: true }).click()
      await page.locator('.xterm-helper-textarea').first().focus()
      await page.keyboard.press('Enter')
      await expectInScrollback(page, 'pasted-42')
      expect(app.calls.some((c) => c.api === 'clipboard.readText')).toBe(true)

      // The page's renderer process dies: main releases its SSH sessions.
      const terminalId = app.events(main.webContentsId, 'ssh.status').at(-1)!.terminalId
      await app.request('rendererGone', main.webContentsId, 'crashed')
      const reconnect = await app.invoke(main.webContentsId, 'ssh.reconnect', { terminalId })
      expect(reconnect).toMatchObject({ ok: false, error: { kind: 'not-allowed' } })
    }
  )
})

/** Resolves once `text` is in the terminal's scrollback (the find bar counts it; xterm draws no text). */
async function expectInScrollback(page: Page, text: string): Promise<void> {
  const find = page.getByRole('search', { name: 'Find in terminal' })
  if (!(await find.isVisible())) await page.getByRole('button', { name: 'Find' }).click()
  const field = find.getByRole('searchbox', { name: 'Find text' })
  const deadline = Date.now() + 15_000
  let summary = ''
  while (Date.now() < deadline) {
    await field.fill(text)
    await field.press('Enter')
    summary = (await find.getByRole('status').textContent()) ?? ''
    if (Number(/of (\d+)/.exec(summary)?.[1] ?? 0) > 0) return
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`"${text}" is not in the terminal's scrollback (find says "${summary}")`)
}
