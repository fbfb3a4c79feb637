/**
 * The SSH terminal through `npm run web` against a Running Sandbox instance served by the
 * emulator's own SSH server: accept the host key, run a command and see its output, resize
 * (the shell sees the new size), find in the scrollback, confirm a multi-line paste, end the
 * session and reconnect in the same tab with the scrollback kept.
 */
import { expectInScrollback, REACHABLE_SANDBOX, typeCommand } from './terminal-helpers'
import { captureScreen, expect, signIn, test } from './web-fixture'
import { posixShellMissing, skipBecause } from '../src/shared/node/testing/platform-support'

test.describe.configure({ timeout: 150_000 })
// bash in the instance's terminal ($((6*7)), stty size, bracketed paste).
test.skip(skipBecause(posixShellMissing(), 'the terminal spec'), posixShellMissing() ?? '')
test.use({ shellOptions: REACHABLE_SANDBOX })

test('open a terminal, run a command, resize, search, end the session and reconnect', async ({ page, shell }) => {
  await shell.emulator().seedInstances('demo', 1, { name: 'term-e2e' })
  await signIn(page, shell)
  const row = page.getByRole('row', { name: /term-e2e/ })
  await expect(row).toContainText('Running', { timeout: 20_000 })
  await row.getByRole('button', { name: /terminal/i }).click()
  await expect(page.getByRole('heading', { name: /^Terminal: term-e2e/ })).toBeVisible()

  // First connection: the host key is unknown and shown with its SHA256 fingerprint.
  const hostKey = page.getByRole('dialog', { name: 'Unknown host key' })
  await expect(hostKey).toBeVisible({ timeout: 20_000 })
  await expect(hostKey.getByLabel('Host key fingerprint')).toHaveText(/^SHA256:[A-Za-z0-9+/]{43}$/)
  await hostKey.getByRole('button', { name: 'Accept and remember' }).click()
  const state = page.getByRole('status').filter({ hasText: /^(Connecting|Connected|Reconnecting|Session ended|Not connected)$/ })
  await expect(state).toHaveText('Connected', { timeout: 20_000 })

  await typeCommand(page, 'echo $((6*7))')
  await expectInScrollback(page, '42')
  await captureScreen(page, 'terminal')

  // Resize: the page gets smaller, xterm refits, and the remote shell sees the new size.
  const size = page.getByLabel('Terminal size')
  const before = await size.textContent()
  await page.setViewportSize({ width: 900, height: 560 })
  await expect(size).not.toHaveText(before ?? '')
  const [cols, rows] = ((await size.textContent()) ?? '').split('×')
  await typeCommand(page, 'stty size')
  await expectInScrollback(page, `${rows} ${cols}`)
  // Find floats over the terminal: opening it leaves the remote size alone. (A bar that took two
  // rows resized the shell's terminal on every search; a `stty size` typed just before then
  // answered the smaller size.)
  await page.getByRole('button', { name: 'Find' }).click()
  await expect(page.getByRole('search', { name: 'Find in terminal' })).toBeVisible()
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
  await expect(size).toHaveText(`${cols}×${rows}`)
  await page.getByRole('button', { name: 'Close find' }).click()

  // A multi-line paste asks first; the pasted lines then run.
  await page.locator('.xterm-helper-textarea').first().focus()
  await page.evaluate(() => {
    const data = new DataTransfer()
    data.setData('text/plain', 'echo first-$((1+1))\necho second-$((2+2))\n')
    document
      .querySelector('.xterm-helper-textarea')!
      .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
  })
  const pasteDialog = page.getByRole('dialog', { name: 'Paste 2 lines?' })
  await expect(pasteDialog.getByLabel('Text to paste')).toHaveText('echo first-$((1+1))\necho second-$((2+2))')
  await pasteDialog.getByRole('button', { name: 'Paste' }).click()
  await expect(pasteDialog).toBeHidden()
  // Bracketed paste: bash holds the pasted lines for review until Enter, instead of running them.
  await expectInScrollback(page, 'echo second-$((2+2))')
  await page.locator('.xterm-helper-textarea').first().focus()
  await page.keyboard.press('Enter')
  await expectInScrollback(page, 'second-4')

  // End the shell: the tab stays with its scrollback; Reconnect gives a new shell in it.
  await typeCommand(page, 'exit')
  await expect(state).toHaveText('Session ended', { timeout: 15_000 })
  await page.getByRole('button', { name: 'Reconnect' }).click()
  await expect(state).toHaveText('Connected', { timeout: 20_000 })
  await typeCommand(page, 'echo again-$((40+2))')
  await expectInScrollback(page, 'again-42')
  // The first command's output is still in the scrollback: 42 appears in "42" and "again-42".
  await expectInScrollback(page, '42', 2)

  // A second tab shares the connection; closing it leaves the first one working.
  await page.getByRole('button', { name: 'New tab' }).click()
  await expect(page.getByRole('tab')).toHaveCount(2)
  await expect(state).toHaveText('Connected', { timeout: 20_000 })
  await expect(page.getByRole('tab', { selected: true })).toHaveText(/term-e2e.* \(2\)/)
  // Its shell lives in a tmux session on the instance: closing asks whether it keeps running.
  await page.getByRole('button', { name: 'Close tab' }).click()
  await page.getByRole('dialog', { name: 'Keep what runs in this tab?' }).getByRole('button', { name: 'End it' }).click()
  await expect(page.getByRole('tab')).toHaveCount(1)
})
