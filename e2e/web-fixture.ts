/**
 * What every browser spec shares: its own `npm run web` shell (real core, Sandbox emulator with a
 * fast boot, memory keychain, fresh data dir), sign-in, screenshots in light and dark, and an
 * axe-core check that fails on any serious or critical violation.
 */
import AxeBuilder from '@axe-core/playwright'
import { test as base, expect, type Page } from '@playwright/test'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { startWebShell, type WebShell, type WebShellOptions } from '../src/web/server'

export const ARTIFACTS = join(import.meta.dirname, 'artifacts')

export interface WebFixtures {
  shellOptions: WebShellOptions
  shell: WebShell
}

/** How fast the specs' emulators boot, stop and make volumes: quick, but slow enough to see each state. */
export const FAST_EMULATOR = { bootMs: 1500, stopMs: 500, volumeReadyMs: 500 }

export const test = base.extend<WebFixtures>({
  shellOptions: [{ emulator: FAST_EMULATOR }, { option: true }],
  shell: async ({ shellOptions }, use) => {
    const shell = await startWebShell(shellOptions)
    await use(shell)
    await shell.close()
  }
})

export { expect }

/** Opens the shell's page and signs in to the Sandbox as demo (prefilled on a first run, with its per-install password). */
export async function signIn(page: Page, shell: WebShell): Promise<void> {
  await page.goto(shell.url)
  await expect(page.getByRole('heading', { name: 'Sign in to Cloud Tray' })).toBeVisible()
  await expect(page.getByLabel('User name')).toHaveValue('demo')
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue(shell.sandbox().password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
}

export interface AxeOptions {
  /**
   * Selectors axe should skip: only for content the app does not style, e.g. a terminal's
   * output, whose colours come from the remote program.
   */
  exclude?: string[]
  /** Every violation fails, not only serious and critical ones (the screenshot walk). */
  allImpacts?: boolean
}

/** axe-core's serious and critical violations (every one with `allImpacts`), each naming its rule and the elements it hit. */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page })
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector)
  const results = await builder.analyze()
  const bad = results.violations.filter((v) => options.allImpacts || v.impact === 'serious' || v.impact === 'critical')
  return bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/** Fails on serious or critical axe-core violations, naming each rule and the elements it hit. */
export async function expectAccessible(page: Page, screen: string, options: AxeOptions = {}): Promise<void> {
  expect(await axeViolations(page, options), `axe-core on ${screen}`).toEqual([])
}

/**
 * Saves `<screen>-light.png` and `<screen>-dark.png` (theme "system" follows the emulated
 * colour scheme), running axe-core in both themes since contrast differs.
 */
export async function captureScreen(page: Page, screen: string, options: AxeOptions = {}): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true })
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme)
    await expectAccessible(page, `${screen} (${scheme})`, options)
    await page.screenshot({ path: join(ARTIFACTS, `${screen}-${scheme}.png`) })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}
