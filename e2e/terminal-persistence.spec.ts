/**
 * Terminals that survive, through `npm run web` (the Sandbox's real SSH servers, this machine's
 * tmux): a tab split in two panes, a command typed in each; the web shell stops and starts again
 * on the same data folder and keychain, and the tab comes back split, each pane with its
 * scrollback (saved, then its tmux session's history). Closing the tab with "Leave it running"
 * keeps both sessions on the instance: its details list them, and Attach opens one again with
 * what it printed. Signing out deletes the saved scrollback from disk.
 */
import type { Locator, Page } from '@playwright/test'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMemoryKeychain } from '../src/main/account/keychain'
import { tmuxMissing } from '../src/main/ssh/testing/tmux'
import { posixShellMissing, skipBecause } from '../src/shared/node/testing/platform-support'
import { startWebShell, type WebShell, type WebShellOptions } from '../src/web/server'
import { expectInScrollback, openFirstTerminal, REACHABLE_SANDBOX, terminalState } from './terminal-helpers'
import { captureScreen, expect, test } from './web-fixture'

test.describe.configure({ timeout: 180_000 })
test.skip(
  skipBecause(posixShellMissing(), 'the terminal persistence spec') || tmuxMissing(),
  posixShellMissing() ?? 'tmux is not installed'
)

const panes = (page: Page): Locator => page.getByRole('group', { name: /^Terminal pane: / })
const state = terminalState

/** Types a command line into one pane (its xterm takes the focus, which makes the pane active). */
async function typeIn(page: Page, pane: Locator, command: string): Promise<void> {
  await pane.locator('.xterm-helper-textarea').focus()
  await page.keyboard.type(command)
  await page.keyboard.press('Enter')
}

/** What the data folder holds of saved scrollback: each pane's file's text. */
async function savedScrollback(dataDir: string): Promise<string[]> {
  const folder = join(dataDir, 'terminal-tabs', 'scrollback')
  const names = await readdir(folder).catch(() => [] as string[])
  return Promise.all(names.map((name) => readFile(join(folder, name), 'utf8')))
}

/**
 * Runs `body` with a web shell on a data folder and keychain of its own, which `restart` stops and
 * starts again on both (as the app quits and starts); afterwards the instances' tmux sessions end
 * and the folder goes, whatever happened.
 */
async function withRestartableShell(
  prefix: string,
  body: (rig: { dataDir: string; shell: () => WebShell; restart: () => Promise<WebShell> }) => Promise<void>
): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix))
  const options: WebShellOptions = { ...REACHABLE_SANDBOX, dataDir, keychain: createMemoryKeychain() }
  let shell = await startWebShell(options)
  const restart = async (): Promise<WebShell> => {
    await shell.close()
    shell = await startWebShell(options)
    return shell
  }
  try {
    await body({ dataDir, shell: () => shell, restart })
  } finally {
    await shell
      .emulator()
      .endSessions()
      .catch(() => undefined)
    await shell.close()
    // Retried: an instance's shell may still write its history while it exits after the close.
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
  }
}

/** Signs in with "Remember me" (after a restart the app opens signed in, as a desktop app does); the instance's row once Running. */
async function signInRemembered(page: Page, shell: WebShell, instanceName: string): Promise<Locator> {
  await page.goto(shell.url)
  await page.getByRole('checkbox', { name: 'Remember me on this computer' }).check()
  await page.getByRole('button', { name: 'Sign in' }).click()
  const row = page.getByRole('row', { name: new RegExp(instanceName) })
  await expect(row).toContainText('Running', { timeout: 20_000 })
  return row
}

test('split panes come back after a restart; Leave it running, then Attach from the panel; sign-out deletes the scrollback', async ({
  page
}) => {
  await withRestartableShell('cloudtray-e2e-persist-', async ({ dataDir, shell, restart }) => {
    await shell().emulator().seedInstances('demo', 1, { name: 'persist-e2e' })
    const row = await signInRemembered(page, shell(), 'persist-e2e')
    await openFirstTerminal(page, row)

    // Split the tab: the new pane is beside the first, its own session over the same connection.
    await page.getByRole('button', { name: 'Split', exact: true }).click()
    await page.getByRole('menu', { name: 'Terminal pane' }).getByRole('menuitem', { name: 'Split right', exact: true }).click()
    await expect(panes(page)).toHaveCount(2)
    await expect(page.getByRole('separator', { name: 'Resize panes' })).toBeVisible()
    await expect(state(page)).toHaveText('Connected', { timeout: 20_000 })

    // A command in each pane; each prompt is made to say which pane it is (the panel shows it).
    await typeIn(page, panes(page).nth(0), "PS1='left-pane$ '; echo left-$((20+1))")
    await expectInScrollback(page, 'left-21')
    await typeIn(page, panes(page).nth(1), "PS1='right-pane$ '; echo right-$((40+2))")
    await expectInScrollback(page, 'right-42')
    await captureScreen(page, 'terminal-split', { exclude: ['.xterm'] })

    // Both panes' scrollback is saved (the window sends it every few seconds while it changes).
    await expect
      .poll(async () => (await savedScrollback(dataDir)).filter((text) => /left-21|right-42/.test(text)).length, { timeout: 20_000 })
      .toBe(2)

    // The shell stops (as the app quits) and starts again on the same data folder and keychain.
    await page.goto((await restart()).url)
    await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible({ timeout: 20_000 })
    await expect(row).toContainText('Running', { timeout: 20_000 })
    await row.getByRole('button', { name: /terminal/i }).click()
    await expect(page.getByRole('tab')).toHaveCount(1)
    await expect(panes(page)).toHaveCount(2)
    await expect(page.getByRole('separator', { name: 'Resize panes' })).toBeVisible()
    await panes(page).nth(0).locator('.xterm-helper-textarea').focus()
    await expect(state(page)).toHaveText('Connected', { timeout: 20_000 })
    await expectInScrollback(page, 'left-21')
    await panes(page).nth(1).locator('.xterm-helper-textarea').focus()
    await expect(state(page)).toHaveText('Connected', { timeout: 20_000 })
    await expectInScrollback(page, 'right-42')
    // The sessions are the same ones: the shells kept what they were told.
    await typeIn(page, panes(page).nth(1), 'echo again-$((1+1))')
    await expectInScrollback(page, 'again-2')

    // Close the tab and leave what runs in it running: the instance's details list both sessions.
    await page.getByRole('button', { name: 'Close tab' }).click()
    const closing = page.getByRole('dialog', { name: 'Keep what runs in this tab?' })
    await closing.getByRole('button', { name: 'Leave it running' }).click()
    await expect(page.getByRole('tab')).toHaveCount(0)
    await page.getByRole('button', { name: 'Back to the instance' }).click()
    const details = page.getByRole('complementary', { name: 'Instance details' })
    const sessions = details.getByRole('list', { name: 'Terminal sessions on the instance' })
    await expect(sessions.getByRole('listitem')).toHaveCount(2, { timeout: 20_000 })
    const left = sessions.getByRole('listitem').filter({ hasText: 'left-pane$' })
    await expect(left).toContainText('Detached')
    await captureScreen(page, 'instance-sessions')

    // Attach: a tab on that session, with what it printed.
    await left.getByRole('button', { name: /^Attach to / }).click()
    await expect(page.getByRole('heading', { name: /^Terminal: persist-e2e/ })).toBeVisible()
    await expect(page.getByRole('tab')).toHaveCount(1)
    await expect(state(page)).toHaveText('Connected', { timeout: 20_000 })
    await expectInScrollback(page, 'left-21')

    // Signing out deletes the saved scrollback from disk.
    await expect.poll(async () => (await savedScrollback(dataDir)).length, { timeout: 20_000 }).toBeGreaterThan(0)
    await page.getByRole('button', { name: 'Sign out' }).first().click()
    await expect(page.getByRole('heading', { name: 'Sign in to Cloud Tray' })).toBeVisible({ timeout: 20_000 })
    await expect.poll(async () => (await savedScrollback(dataDir)).length, { timeout: 20_000 }).toBe(0)
    const tabsFile = await readFile(join(dataDir, 'terminal-tabs', 'tabs.json'), 'utf8').catch(() => '')
    expect(tabsFile).not.toContain('left-21')
    expect(tabsFile).not.toContain('sandbox/demo')
  })
})

test('a restored tab whose instance stopped meanwhile says so, does not connect, and can be closed', async ({ page }) => {
  await withRestartableShell('cloudtray-e2e-persist-stopped-', async ({ dataDir, restart, shell: first }) => {
    const [instanceId] = await first().emulator().seedInstances('demo', 1, { name: 'stopped-e2e' })
    await openFirstTerminal(page, await signInRemembered(page, first(), 'stopped-e2e'))
    const tabsFile = join(dataDir, 'terminal-tabs', 'tabs.json')
    await expect.poll(async () => (await readFile(tabsFile, 'utf8').catch(() => '')).includes(instanceId!), { timeout: 20_000 }).toBe(true)

    // The app quits; the instance is stopped meanwhile (from the console, say); the app starts again.
    const shell = await restart()
    shell.emulator().setStatus(instanceId!, 'Stopped')
    const opened = new Set<string>()
    const off = shell.core.subscribe((event, payload) => {
      if (event === 'ssh.status') opened.add((payload as { terminalId: string }).terminalId)
    })
    await page.goto(shell.url)
    const told = page.getByRole('region', { name: 'Notifications' }).getByRole('status').filter({ hasText: 'stopped-e2e-1 is Stopped' })
    await expect(told).toBeVisible({ timeout: 20_000 })
    await expect(told).toContainText('Its terminal tab connects when it runs again.')
    expect(opened.size).toBe(0)
    await told.getByRole('button', { name: 'Close it' }).click()
    const savedTabs = async (): Promise<number> => (JSON.parse(await readFile(tabsFile, 'utf8')) as { tabs: unknown[] }).tabs.length
    await expect.poll(savedTabs, { timeout: 20_000 }).toBe(0)
    off()
  })
})

test("a new tab's scrollback is saved even when the tabs' save reaches main late", async ({ page }) => {
  // Main keeps scrollback only for a pane of a tab it has saved. Each save of the tabs is held on
  // its way for 8 s here (a busy machine can delay it for seconds), so the first scrollback is ready
  // before main knows the tab. Before, that scrollback was dropped and, with no more output,
  // never sent again: nothing on disk for that pane, as CI once saw after an Attach.
  const TABS_SAVE_DELAY_MS = 8_000
  await page.routeWebSocket(/\/ws$/, (route) => {
    const server = route.connectToServer()
    route.onMessage((message) => {
      if (typeof message === 'string' && message.includes('"command":"terminals.save"'))
        setTimeout(() => server.send(message), TABS_SAVE_DELAY_MS)
      else server.send(message)
    })
  })
  await withRestartableShell('cloudtray-e2e-persist-late-', async ({ dataDir, shell }) => {
    await shell().emulator().seedInstances('demo', 1, { name: 'late-e2e' })
    await openFirstTerminal(page, await signInRemembered(page, shell(), 'late-e2e'))
    await typeIn(page, panes(page).nth(0), 'echo late-$((6*7))')
    await expectInScrollback(page, 'late-42')
    await expect.poll(async () => (await savedScrollback(dataDir)).some((text) => text.includes('late-42')), { timeout: 30_000 }).toBe(true)
  })
})
