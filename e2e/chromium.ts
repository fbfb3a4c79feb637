/**
 * Which Chromium the browser tests drive. Debian's /usr/bin/chromium where it exists (this
 * machine and CI); otherwise Playwright's own build, from `npx playwright install chromium`
 * on a machine with internet. The flags keep a closed network quiet.
 */
import { existsSync } from 'node:fs'

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser']

export const chromiumExecutable: string | undefined = process.env['CHROMIUM_PATH'] ?? SYSTEM_CHROMIUM.find((path) => existsSync(path))

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run'
]
