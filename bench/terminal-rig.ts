/**
 * What the terminal benchmarks in a browser share (xterm-throughput.ts, typing-latency.ts): the
 * app's web shell with a Sandbox instance whose SSH server is Debian's OpenSSH on loopback, in
 * headless Chromium; a page signed in with the instance's terminal open; and a blank page of the
 * same browser with the prebuilt xterm.js at the app terminal's size, font and renderer (the
 * reference each of them measures the app against).
 */
import { createRequire } from 'node:module'
import { chromium, type Browser, type Page } from '@playwright/test'
import { chromiumArgs, chromiumExecutable } from '../e2e/chromium'
import { SANDBOX_PROFILE_ID } from '../src/main/account/profiles'
import { createReach } from '../src/emulator/reach/index'
import { OpenSshServer, opensshAvailable } from '../src/main/ssh/testing/openssh-server'
import { MINIMUM_CONTRAST_RATIO, TERMINAL_FONT_FAMILY } from '../src/renderer/src/terminal/terminal-theme'
import { startWebShell, type WebShell } from '../src/web/server'
import { DISABLED_CHROMIUM_FEATURES, DISABLE_FEATURES_SWITCH } from '../src/main/windows/chromium-features'

/** What the page's terminal is: its renderer and size, as its status line shows them. */
export interface PageTerminal {
  renderer: string
  cols: number
  rows: number
}

export interface TerminalRig {
  shell: WebShell
  browser: Browser
  instanceId: string
  /** Where the instance's SSH server runs, for the printout. */
  remoteLabel: string
  /** Whether the remote is OpenSSH (else the emulator's own server, in this process). */
  openssh: boolean
  close(): Promise<void>
}

/**
 * The instance's SSH server: Debian's OpenSSH when it is here (what real instances run; the
 * emulator forwards the node port to it), else the emulator's own, which runs in this process
 * and so takes CPU from the app's main process that a remote server would not.
 */
async function remoteSshServer(): Promise<{ sshd: OpenSshServer | undefined; reach: ReturnType<typeof createReach>; label: string }> {
  if (!opensshAvailable()) return { sshd: undefined, reach: createReach(), label: "the emulator's built-in SSH server (no OpenSSH here)" }
  const sshd = new OpenSshServer()
  await sshd.start()
  return {
    sshd,
    reach: createReach({ sshBackend: { host: '127.0.0.1', port: sshd.port } }),
    label: 'OpenSSH (sshd on 127.0.0.1, via --ssh-backend)'
  }
}

/**
 * The features the app's window runs without (Electron's command line carries them), so the page
 * runs here as it does in the app. Chromium keeps only the last `--disable-features`: this one
 * replaces Playwright's own list, which the app's Electron never has either.
 */
const APP_FEATURES_SWITCH = `--${DISABLE_FEATURES_SWITCH}=${DISABLED_CHROMIUM_FEATURES.join(',')}`

/**
 * The web shell, one running instance named `bench`, and Chromium. Terminals run plain shells:
 * in a tmux session (the default since #25) tmux redraws the screen at its own pace instead of
 * passing a flood through, so xterm would never see the bytes a benchmark counts.
 */
export async function startTerminalRig(): Promise<TerminalRig> {
  const remote = await remoteSshServer()
  const shell = await startWebShell({ emulator: { bootMs: 500, stopMs: 200 }, reach: remote.reach })
  // sshd accepts its own throwaway user key; the app uses it as the key file set in settings.
  const set = await shell.core.handle(
    'settings.update',
    { ...(remote.sshd ? { sshKeyFile: remote.sshd.userKeyPath } : {}), terminals: { plainShellProfiles: [SANDBOX_PROFILE_ID] } },
    { clientId: 'bench-setup' }
  )
  if (!set.ok) throw new Error(set.error.message)
  const browser = await chromium.launch({
    ...(chromiumExecutable ? { executablePath: chromiumExecutable } : {}),
    args: [...chromiumArgs, APP_FEATURES_SWITCH]
  })
  const [instanceId] = await shell.emulator().seedInstances('demo', 1, { name: 'bench' })
  return {
    shell,
    browser,
    instanceId: instanceId as string,
    remoteLabel: remote.label,
    openssh: remote.sshd !== undefined,
    async close() {
      await browser.close()
      await shell.close()
      await remote.sshd?.dispose()
    }
  }
}

/** Signs in and opens the bench instance's terminal; `signedIn`: a second page of the same session. */
export async function openTerminal(page: Page, shell: WebShell, signedIn = false): Promise<PageTerminal> {
  await page.goto(shell.url)
  if (!signedIn) await page.getByRole('button', { name: 'Sign in' }).click()
  const row = page.getByRole('row', { name: /bench/ })
  await row.getByRole('button', { name: /terminal/i }).click({ timeout: 30_000 })
  // The host key is asked once: a second tab joins the accepted connection.
  if (!signedIn)
    await page.getByRole('dialog', { name: 'Unknown host key' }).getByRole('button', { name: 'Accept once' }).click({ timeout: 30_000 })
  await connected(page)
  return pageTerminal(page)
}

/** Waits for the shown pane to be connected. */
export async function connected(page: Page): Promise<void> {
  await page
    .getByRole('status')
    .filter({ hasText: /^Connected$/ })
    .waitFor({ timeout: 30_000 })
}

/** The shown pane's renderer and size, from its status line. */
export async function pageTerminal(page: Page): Promise<PageTerminal> {
  const renderer = (await page.getByText(/Renderer: (WebGL|DOM)/).textContent())?.match(/WebGL|DOM/)?.[0] ?? '?'
  const size = (await page.getByLabel('Terminal size').textContent())?.match(/^(\d+)×(\d+)$/)
  if (!size) throw new Error('the terminal did not show its size')
  return { renderer, cols: Number(size[1]), rows: Number(size[2]) }
}

/**
 * The shown terminal's keyboard input. Not `.xterm-helper-textarea:visible`: xterm sizes that
 * textarea only while its cursor is in view and the terminal has focus, so after a tab was
 * restored (its scrollback drawn, no focus yet) it had no size and the bench waited forever.
 */
export const SHOWN_TERMINAL_INPUT = '.xterm:visible .xterm-helper-textarea'

/** Types a line into the shown terminal and presses Enter. */
export async function typeLine(page: Page, text: string): Promise<void> {
  await page.locator(SHOWN_TERMINAL_INPUT).first().focus()
  await page.keyboard.type(text)
  await page.keyboard.press('Enter')
}

export async function until(check: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/**
 * A blank page of the same browser with xterm.js alone (its prebuilt bundle), at the app
 * terminal's size, font and renderer: `term` is a global of the page. The page's own tab.
 */
export async function xtermAlonePage(browser: Browser, size: PageTerminal): Promise<Page> {
  const require = createRequire(import.meta.url)
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.setContent('<!doctype html><html><body style="margin:0"><div id="t"></div></body></html>')
  await page.addStyleTag({ path: require.resolve('@xterm/xterm/css/xterm.css') })
  await page.addScriptTag({ path: require.resolve('@xterm/xterm/lib/xterm.js') })
  const webgl = size.renderer === 'WebGL'
  if (webgl) await page.addScriptTag({ path: require.resolve('@xterm/addon-webgl/lib/addon-webgl.js') })
  const options = {
    cols: size.cols,
    rows: size.rows,
    fontSize: 14,
    fontFamily: TERMINAL_FONT_FAMILY,
    scrollback: 10_000,
    minimumContrastRatio: MINIMUM_CONTRAST_RATIO,
    cursorBlink: true
  }
  // A plain string: it runs in the page (no DOM types here, and no bundler helpers in it).
  await page.evaluate(`(([options, webgl]) => {
    window.term = new Terminal(options)
    term.open(document.getElementById('t'))
    if (webgl) term.loadAddon(new WebglAddon.WebglAddon())
  })(${JSON.stringify([options, webgl])})`)
  return page
}

export function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN
}
