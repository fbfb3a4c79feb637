/**
 * Which Chromium the browser tests drive. Debian's /usr/bin/chromium where it exists (this
 * machine and CI); otherwise Playwright's own build, from `npx playwright install chromium`
 * on a machine with internet. The flags keep a closed network quiet.
 */
import { existsSync } from 'node:fs'
import { chromium } from '@playwright/test'

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser']

export const chromiumExecutable: string | undefined = process.env['CHROMIUM_PATH'] ?? SYSTEM_CHROMIUM.find((path) => existsSync(path))

/** Why no Chromium can be driven here (neither Debian's nor Playwright's), or undefined when one can. */
export function chromiumMissing(): string | undefined {
  if (chromiumExecutable || existsSync(chromium.executablePath())) return undefined
  return 'no Chromium is installed; on Debian: sudo apt-get install chromium (or `npx playwright install chromium` with internet)'
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run'
]
