/**
 * #24, ports as one idea: the row's Ports (enabled for any running instance with SSH, even with
 * no published port) shows the ports the cloud published and the ports forwarded over SSH to
 * this computer, and forwards one from there. A tunnel whose instance stopped says it will not
 * run again (the cloud has no start call) and offers to remove it; its line never goes stale.
 */
import { REACHABLE_SANDBOX } from './terminal-helpers'
import { expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 150_000 })
test.use({ shellOptions: REACHABLE_SANDBOX })

test('published and forwarded ports in one place; a stopped instance’s tunnel offers to be removed', async ({ page, shell }) => {
  const [instanceId] = await shell.emulator().seedInstances('demo', 1, { name: 'ports-box' })
  await signIn(page, shell)
  const row = page.getByRole('row', { name: /ports-box/ })
  await expect(row).toContainText('Running')

  // No port was published at create, yet Ports opens: SSH forwards any port.
  await expect(page.getByRole('button', { name: 'Ports ports-box-1' })).toBeEnabled()
  await page.getByRole('button', { name: 'Ports ports-box-1' }).click()
  const ports = page.getByRole('dialog', { name: 'Ports of ports-box-1' })
  await expect(ports.getByRole('heading', { name: 'Published by the cloud' })).toBeVisible()
  await expect(ports.getByRole('table', { name: 'Published ports' }).getByRole('row', { name: /^22 \(SSH\)/ })).toBeVisible()
  await expect(ports.getByRole('heading', { name: 'Forwarded over SSH to this computer' })).toBeVisible()
  await ports.getByRole('button', { name: 'Forward a port…' }).click()

  const forward = page.getByRole('dialog', { name: 'Forward a port of ports-box-1' })
  await forward.getByRole('radio', { name: 'TensorBoard (6006)' }).check()
  await forward.getByRole('button', { name: 'Forward' }).click()
  const hostKey = page.getByRole('dialog', { name: 'Unknown host key' })
  await expect(hostKey).toBeVisible({ timeout: 20_000 })
  await hostKey.getByRole('button', { name: 'Accept and remember' }).click()

  // The same place lists it now.
  await page.getByRole('button', { name: 'Ports ports-box-1' }).click()
  const forwarded = ports.getByRole('list', { name: 'Ports forwarded over SSH' })
  await expect(forwarded).toContainText('TensorBoard (6006)')
  await expect(forwarded).toContainText('Open', { timeout: 20_000 })
  await ports.getByRole('button', { name: 'Close' }).first().click()

  // Stopped: the cloud has no start call, so the tunnel will not open again; it says so, and goes when removed.
  await page.getByRole('button', { name: 'Stop ports-box-1' }).click()
  await page.getByRole('dialog', { name: 'Stop ports-box-1?' }).getByRole('button', { name: 'Stop instance' }).click()
  await expect(row).toContainText('Stopped', { timeout: 20_000 })
  await row.getByRole('button', { name: /^Details of ports-box/ }).click()
  const details = page.getByRole('complementary', { name: 'Instance details' })
  const tunnel = details.getByRole('list', { name: 'Ports forwarded over SSH' }).getByRole('listitem')
  await expect(tunnel).toContainText('Ended')
  await expect(tunnel).toContainText('ports-box-1 is stopped and will not run again')
  await expect(tunnel).not.toContainText('waiting for')
  await tunnel.getByRole('button', { name: 'Remove TensorBoard (6006)' }).click()
  await expect(details.getByRole('list', { name: 'Ports forwarded over SSH' })).toHaveCount(0)
  expect(instanceId).toBeTruthy()
})
