/**
 * What the terminal specs share: a Sandbox whose instances are reachable, typing a command, and
 * finding text in the scrollback (xterm draws no text a locator can read; its find bar counts).
 */
import { expect, type Locator, type Page } from '@playwright/test'
import { createReach } from '../src/emulator/reach/index'
import type { WebShellOptions } from '../src/web/server'
import { FAST_EMULATOR } from './web-fixture'

/** A fast-booting Sandbox with real SSH servers, notebook pages and forwarders. */
export const REACHABLE_SANDBOX: WebShellOptions = {
  emulator: FAST_EMULATOR,
  reach: createReach()
}

/** The terminal view's connection pill (the active pane's state). */
export function terminalState(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: /^(Connecting|Connected|Reconnecting|Session ended|Not connected)$/ })
}

/** From the instance list: the row's Terminal, the first connection's host key accepted, connected. */
export async function openFirstTerminal(page: Page, row: Locator): Promise<void> {
  await row.getByRole('button', { name: /terminal/i }).click()
  const hostKey = page.getByRole('dialog', { name: 'Unknown host key' })
  await expect(hostKey).toBeVisible({ timeout: 20_000 })
  await hostKey.getByRole('button', { name: 'Accept and remember' }).click()
  await expect(terminalState(page)).toHaveText('Connected', { timeout: 20_000 })
}

/** Types a command line into the active terminal tab and presses Enter. */
export async function typeCommand(page: Page, command: string): Promise<void> {
  await page.locator('.xterm-helper-textarea').first().focus()
  await page.keyboard.type(command)
  await page.keyboard.press('Enter')
}

/** Uses the find bar: resolves once `text` appears in the scrollback at least `atLeast` times. */
export async function expectInScrollback(page: Page, text: string, atLeast = 1): Promise<void> {
  const find = page.getByRole('search', { name: 'Find in terminal' })
  if (!(await find.isVisible())) await page.getByRole('button', { name: 'Find' }).click()
  const field = find.getByRole('searchbox', { name: 'Find text' })
  await expect(async () => {
    await field.fill(text)
    await field.press('Enter')
    const summary = (await find.getByRole('status').textContent()) ?? ''
    const count = Number(/of (\d+)/.exec(summary)?.[1] ?? 0)
    expect(count, `"${text}" in the scrollback (find says "${summary}")`).toBeGreaterThanOrEqual(atLeast)
  }).toPass({ timeout: 15_000 })
  await find.getByRole('button', { name: 'Close find' }).click()
}
