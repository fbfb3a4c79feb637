/** What the terminal specs share: a Sandbox whose instances are reachable, and typing a command. */
import type { Page } from '@playwright/test'
import { createReach } from '../src/emulator/reach/index'
import type { WebShellOptions } from '../src/web/server'

/** A fast-booting Sandbox with real SSH servers, notebook pages and forwarders. */
export const REACHABLE_SANDBOX: WebShellOptions = {
  emulator: { bootMs: 1500, stopMs: 500, volumeReadyMs: 500 },
  reach: createReach()
}

/** Types a command line into the active terminal tab and presses Enter. */
export async function typeCommand(page: Page, command: string): Promise<void> {
  await page.locator('.xterm-helper-textarea').first().focus()
  await page.keyboard.type(command)
  await page.keyboard.press('Enter')
}
