/**
 * Fault injection for the terminal: the instance's SSH server goes away mid-session (its sshd
 * restarts: every connection dropped, nothing listening for a few seconds) and comes back on the
 * same port. The terminal must say it lost the connection, reconnect by itself with backoff, and
 * keep the scrollback; no click from the user.
 */
import { expectInScrollback, REACHABLE_SANDBOX, typeCommand } from './terminal-helpers'
import { expect, signIn, test } from './web-fixture'
import { posixShellMissing, skipBecause } from '../src/shared/node/testing/platform-support'

test.describe.configure({ timeout: 150_000 })
// bash in the instance's terminal, before and after the reconnect.
test.skip(skipBecause(posixShellMissing(), 'the SSH fault spec'), posixShellMissing() ?? '')
test.use({ shellOptions: REACHABLE_SANDBOX })

test('an SSH server killed mid-session: the terminal reconnects by itself and keeps its scrollback', async ({ page, shell }) => {
  const control = shell.emulator()
  const [instanceId] = await control.seedInstances('demo', 1, { name: 'ssh-fault' })
  await signIn(page, shell)
  const row = page.getByRole('row', { name: /ssh-fault/ })
  await expect(row).toContainText('Running', { timeout: 20_000 })
  await row.getByRole('button', { name: /terminal/i }).click()
  const hostKey = page.getByRole('dialog', { name: 'Unknown host key' })
  await expect(hostKey).toBeVisible({ timeout: 20_000 })
  await hostKey.getByRole('button', { name: 'Accept and remember' }).click()
  const state = page.getByRole('status').filter({ hasText: /^(Connecting|Connected|Reconnecting|Session ended|Not connected)/ })
  await expect(state).toHaveText('Connected', { timeout: 20_000 })
  await typeCommand(page, 'echo before-$((6*7))')
  await expectInScrollback(page, 'before-42')

  // The server dies: every session dropped, the port closed.
  control.setStatus(instanceId!, 'Starting')
  // The terminal says so and goes on trying by itself (not "Session ended", which needs a click).
  await expect(state).toHaveText(/^Reconnecting/, { timeout: 15_000 })
  // The server is back on the same port, with the same host key.
  control.setStatus(instanceId!, 'Running')

  await expect(state).toHaveText('Connected', { timeout: 60_000 })
  await typeCommand(page, 'echo after-$((6*7))')
  await expectInScrollback(page, 'after-42')
  await expectInScrollback(page, 'before-42')
  // The same known key: no new trust question.
  await expect(hostKey).toBeHidden()
})
