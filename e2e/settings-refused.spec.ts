/**
 * A setting main could not write: the control shows the saved value again, and a toast says why;
 * a profile it could not write: the dialog stays, with what was typed, and says why under it.
 * A folder where settings.json goes makes the write fail (even for root, as CI runs), the way a
 * full or read-only disk would. Before, the box stayed ticked while the app kept the old value.
 */
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { captureScreen, expect, signIn, test } from './web-fixture'

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

  // A new profile whose file cannot be written: the dialog stays, with what was typed, and says why.
  const profilesFile = join(shell.dataDir, 'profiles.json')
  await rm(profilesFile, { force: true })
  await mkdir(profilesFile)
  await page.getByRole('button', { name: 'Add profile' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add profile' })
  await dialog.getByLabel('Profile name').fill('Staging')
  await dialog.getByLabel('API address').fill('https://staging.example/api')
  await dialog.getByRole('button', { name: 'Save profile' }).click()
  await expect(dialog).toContainText(`Could not save your profiles in ${profilesFile}: a folder is where the file should be.`)
  await expect(dialog.getByLabel('API address')).not.toHaveAccessibleDescription(/Could not save/)
  await expect(dialog.getByLabel('Profile name')).toHaveValue('Staging')
  await captureScreen(page, 'settings-profile-not-saved')
  await rm(profilesFile, { recursive: true })
  await dialog.getByRole('button', { name: 'Save profile' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('https://staging.example/api')).toBeVisible()

  // Once the disk takes it again, the same click saves.
  await rm(settingsFile, { recursive: true })
  await ready.click()
  await expect(ready).not.toBeChecked()
  await page.reload()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('checkbox', { name: 'An instance is ready (Running)' })).not.toBeChecked()
})
