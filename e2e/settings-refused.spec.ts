/**
 * A setting main could not write: the control shows the saved value again, and a toast says why.
 * A folder where settings.json goes makes the write fail (even for root, as CI runs), the way a
 * full or read-only disk would. Before, the box stayed ticked while the app kept the old value.
 */
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, signIn, test } from './web-fixture'

test('a change main cannot save goes back in the page, and the toast says what to fix', async ({ page, shell }) => {
  await signIn(page, shell)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible()

  const settingsFile = join(shell.dataDir, 'settings.json')
  await rm(settingsFile, { force: true })
  await mkdir(settingsFile)

  const toasts = page.getByRole('region', { name: 'Notifications' })
  const refusal = toasts.getByText('a folder is where the file should be').first()

  // A check box.
  const ready = page.getByRole('checkbox', { name: 'An instance is ready (Running)' })
  await expect(ready).toBeChecked()
  await ready.click()
  await expect(refusal).toBeVisible()
  await expect(toasts.getByText(`Could not save your settings in ${settingsFile}`).first()).toBeVisible()
  await expect(ready).toBeChecked()

  // A radio: the theme stays as it was, in the page and in the control.
  const theme = page.getByRole('group', { name: 'Theme' })
  await expect(theme.getByRole('radio', { name: 'Follow the system' })).toBeChecked()
  await theme.getByRole('radio', { name: 'Dark' }).click()
  await expect(theme.getByRole('radio', { name: 'Follow the system' })).toBeChecked()
  await expect(theme.getByRole('radio', { name: 'Dark' })).not.toBeChecked()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')

  // A select.
  const onClose = page.getByLabel('When I close a tab that keeps running')
  await expect(onClose).toHaveValue('ask')
  await onClose.selectOption({ label: 'End it' })
  await expect(onClose).toHaveValue('ask')

  // Once the disk takes it again, the same click saves.
  await rm(settingsFile, { recursive: true })
  await ready.click()
  await expect(ready).not.toBeChecked()
  await page.reload()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('checkbox', { name: 'An instance is ready (Running)' })).not.toBeChecked()
})
