/**
 * Launching the built desktop app for the Playwright Electron specs. Finds the Electron binary
 * without `require('electron')` (which would try to download it), checks the app is built, and
 * otherwise skips the spec with a reason printed to the console, so a machine without Electron
 * (this one) says plainly why these specs did not run. CI downloads Electron and runs them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test'
import { chooseLaunch, launchReviewed } from '../launch-helpers'

export const ROOT = join(import.meta.dirname, '..', '..')
export const MAIN_ENTRY = join(ROOT, 'out', 'main', 'index.js')

export type Availability = { ok: true; executablePath: string } | { ok: false; reason: string }

/** Where Electron's binary is, or why these specs cannot run here. */
export function electronAvailability(): Availability {
  const packageDir = join(ROOT, 'node_modules', 'electron')
  const pathFile = join(packageDir, 'path.txt')
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH']
  const executablePath = override ? join(override, relative ?? 'electron') : relative ? join(packageDir, 'dist', relative) : undefined
  if (!executablePath || !existsSync(executablePath)) {
    return {
      ok: false,
      reason: `No Electron binary is installed (looked for ${executablePath ?? pathFile}); fetch it with \`npx --no install-electron\` on a machine with internet.`
    }
  }
  if (!existsSync(MAIN_ENTRY)) return { ok: false, reason: `${MAIN_ENTRY} is missing: run npm run build first.` }
  return { ok: true, executablePath }
}

const printed = new Set<string>()

/** Call at the top of a spec: skips it (printing why, once per reason) when Electron cannot run. */
export function requireElectron(): string {
  const availability = electronAvailability()
  if (!availability.ok) {
    if (!printed.has(availability.reason)) {
      printed.add(availability.reason)
      console.log(`[electron specs skipped] ${availability.reason}`)
    }
    test.skip(true, availability.reason)
    return ''
  }
  return availability.executablePath
}

export interface LaunchedApp {
  app: ElectronApplication
  window: Page
  userData: string
  close(): Promise<void>
}

/** The built app on a fresh data folder (the Sandbox is preselected there), its first window shown. */
export async function launchApp(executablePath: string): Promise<LaunchedApp> {
  const userData = mkdtempSync(join(tmpdir(), 'cloud-tray-electron-'))
  const app = await electron.launch({
    executablePath,
    args: [MAIN_ENTRY, `--user-data-dir=${userData}`],
    env: { ...process.env, ELECTRON_ENABLE_LOGGING: '1' },
    // With Chromium's sandbox, as users run it: Playwright otherwise adds --no-sandbox on Linux,
    // and CI's setuid chrome-sandbox step would have no effect. On a Linux machine, give
    // node_modules/electron/dist/chrome-sandbox to root with mode 4755 first (see ci.yml).
    chromiumSandbox: true
  })
  const window = await app.firstWindow()
  return {
    app,
    window,
    userData,
    async close() {
      await app.close().catch(() => undefined)
      rmSync(userData, { recursive: true, force: true })
    }
  }
}

/** Signs in to the Sandbox as demo with its per-install password (both prefilled on a first run) and waits for the list. */
export async function signInToSandbox(window: Page): Promise<void> {
  await expect(window.getByRole('heading', { name: 'Sign in to Cloud Tray' })).toBeVisible()
  await expect(window.getByLabel('Profile')).toHaveValue('sandbox')
  await expect(window.getByLabel('User name')).toHaveValue('demo')
  await expect(window.getByLabel('Password', { exact: true })).not.toHaveValue('')
  await window.getByRole('button', { name: 'Sign in' }).click()
  await expect(window.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
}

/** Signs in, creates an instance, waits for it to run and opens its notebook window. */
export async function openNotebookOfNewInstance(launched: LaunchedApp, name: string): Promise<Page> {
  const { app, window } = launched
  await signInToSandbox(window)
  await createInstance(window, name)
  await expect(window.getByRole('row', { name: new RegExp(name) })).toContainText('Running', { timeout: 30_000 })
  const opened = app.waitForEvent('window')
  await window.getByRole('complementary', { name: 'Instance details' }).getByRole('button', { name: 'Open notebook' }).click()
  const notebook = await opened
  // The window's first page is the app's own "opening" page (a data: URL); the notebook follows.
  await notebook.waitForURL(/^https:/, { waitUntil: 'domcontentloaded' })
  return notebook
}

/**
 * A first terminal's host-key question, answered: each launch has a fresh data folder, so the
 * Sandbox's key is never known yet. Waits for the dialog (it opens once the key has arrived).
 */
export async function acceptFirstHostKey(window: Page): Promise<void> {
  const hostKey = window.getByRole('dialog', { name: 'Unknown host key' })
  await expect(hostKey).toBeVisible({ timeout: 20_000 })
  await hostKey.getByRole('button', { name: 'Accept and remember' }).click()
}

/** The create form, filled for the Sandbox's default catalogue, submitted. */
export async function createInstance(window: Page, name: string): Promise<void> {
  await window.keyboard.press(process.platform === 'darwin' ? 'Meta+N' : 'Control+N')
  await window.getByLabel('Name', { exact: true }).fill(name)
  await chooseLaunch(window, { type: /^1 × A100-PCIE-80GB /, image: 'img-pytorch-2.5-cuda12.4', region: 'us-west-1' })
  await launchReviewed(window)
}
