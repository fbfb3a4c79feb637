/**
 * A terminal on an instance without tmux, through `npm run web`: the tab says once, in a
 * person's words, that it ends if the connection drops and how to fix that, with "Don't show
 * again". The connection drops: the tab comes back with a new shell and its scrollback kept. The
 * shell ends: Ctrl+Shift+R reconnects in the same tab, the scrollback still there. After "Don't
 * show again", a new tab does not say it again, and Settings → Terminals can give it back.
 */
import type { Locator, Page } from '@playwright/test'
import { posixShellMissing, skipBecause } from '../src/shared/node/testing/platform-support'
import { expectInScrollback, openFirstTerminal, REACHABLE_SANDBOX, terminalState, typeCommand } from './terminal-helpers'
import { expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 150_000 })
test.skip(skipBecause(posixShellMissing(), 'the no-tmux terminal spec'), posixShellMissing() ?? '')
test.use({ shellOptions: REACHABLE_SANDBOX })

const state = terminalState
const notice = (page: Page): Locator => page.getByRole('note', { name: 'This pane does not survive a dropped connection' })

test('no tmux: the tab says so once; a dropped link and Reconnect (Ctrl+Shift+R) keep the scrollback', async ({ page, shell }) => {
  const [instanceId] = await shell.emulator().seedInstances('demo', 1, { name: 'plain-e2e' })
  await shell.emulator().faults.tmux(instanceId!, 'missing')
  await signIn(page, shell)
  const row = page.getByRole('row', { name: /plain-e2e/ })
  await expect(row).toContainText('Running', { timeout: 20_000 })
  await openFirstTerminal(page, row)

  await expect(notice(page)).toContainText(
    'This tab ends if the connection drops. Install tmux on the instance to keep jobs running: `apt-get install tmux`.'
  )
  await typeCommand(page, 'echo plain-$((40+2))')
  await expectInScrollback(page, 'plain-42')

  // The network goes away: the tab reconnects by itself, a new shell under the old scrollback.
  shell.emulator().faults.dropSsh(instanceId!)
  await expect(state(page)).toHaveText(/Reconnecting|Connecting/, { timeout: 20_000 })
  await expect(state(page)).toHaveText('Connected', { timeout: 30_000 })
  await expectInScrollback(page, 'plain-42')

  // The shell ends; the keyboard's Reconnect gives a new one in the same tab.
  await typeCommand(page, 'exit')
  await expect(state(page)).toHaveText('Session ended', { timeout: 15_000 })
  await page.locator('.xterm-helper-textarea').first().focus()
  await page.keyboard.press('Control+Shift+R')
  await expect(state(page)).toHaveText('Connected', { timeout: 20_000 })
  await typeCommand(page, 'echo again-$((40+2))')
  await expectInScrollback(page, 'again-42')
  await expectInScrollback(page, 'plain-42')
  await expect(page.getByRole('tab')).toHaveCount(1)

  // "Don't show again": gone here, and a new tab does not say it.
  await notice(page).getByRole('button', { name: "Don't show again" }).click()
  await expect(notice(page)).toHaveCount(0)
  await page.getByRole('button', { name: 'New tab' }).click()
  await expect(page.getByRole('tab')).toHaveCount(2)
  await expect(state(page)).toHaveText('Connected', { timeout: 20_000 })
  await expect(notice(page)).toHaveCount(0)

  // Settings → Terminals says the same, and gives the notice back.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  const terminals = page.getByRole('region', { name: 'Terminals' })
  const sayIt = terminals.getByRole('checkbox', { name: 'Say when an instance has no tmux' })
  await expect(sayIt).not.toBeChecked()
  await expect(terminals.getByRole('checkbox', { name: 'Keep terminals running on the instance (Sandbox)' })).toBeChecked()
  await expect(terminals.getByRole('combobox', { name: 'When I close a tab that keeps running' })).toHaveValue('ask')
  await sayIt.check()
  await expect(sayIt).toBeChecked()
})
