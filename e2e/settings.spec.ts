import { captureScreen, expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 120_000 })

test('settings: theme, notifications, profiles add/edit/remove; shortcuts and the tray panel', async ({ page, shell }) => {
  await signIn(page, shell)
  const main = page.getByRole('navigation', { name: 'Main' })
  await main.getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible()
  await captureScreen(page, 'settings')

  // The Sandbox's account for curl, with its per-install password and a copy button (#12 item 1).
  const sandbox = page.getByRole('region', { name: 'Sandbox', exact: true })
  const access = shell.sandbox()
  await expect(sandbox.getByLabel('Sandbox API address', { exact: true })).toHaveText(access.apiUrl)
  await expect(sandbox.getByLabel('Sandbox password', { exact: true })).toHaveText(access.password)
  await expect(sandbox.getByLabel('Sandbox control address', { exact: true })).toHaveText(`${access.controlUrl}/`)
  await expect(sandbox.getByLabel('Sandbox control secret file', { exact: true })).toHaveText(access.controlSecretFile!)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await sandbox.getByRole('button', { name: 'Copy Sandbox password' }).click()
  await expect(sandbox.getByRole('button', { name: 'Copy Sandbox password' })).toHaveText('Copied')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(access.password)
  await expect(sandbox.getByLabel('Sandbox sign-in command', { exact: true })).toContainText(`"password":"${access.password}"`)

  // Updates belong to the installed app: the web shell says so, quietly, and offers no channel.
  const updates = page.getByRole('region', { name: 'Updates', exact: true })
  await expect(updates.getByRole('status')).toHaveText('Updates come with the installed app.')
  await expect(updates.getByRole('radio')).toHaveCount(0)

  // Theme: an explicit choice wins over the system's scheme.
  await page.getByRole('radio', { name: 'Dark' }).check()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await page.getByRole('radio', { name: 'Follow the system' }).check()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light')

  const ready = page.getByRole('checkbox', { name: 'An instance is ready (Running)' })
  await expect(ready).toBeChecked()
  await ready.uncheck()

  // "Saved" shows beside the button pressed, in view: not in one line at the top of a long page.
  const ssh = page.getByRole('region', { name: 'SSH', exact: true })
  await ssh.getByRole('button', { name: 'Save key file' }).click()
  await expect(ssh.getByRole('status')).toHaveText('SSH key setting saved.')
  await expect(ssh.getByRole('status')).toBeInViewport()
  const guard = page.getByRole('region', { name: 'Cost guard', exact: true })
  await guard.getByRole('button', { name: 'Save rules for new instances' }).click()
  const rulesSaved = guard.getByRole('status').filter({ hasText: 'Rules saved.' })
  await expect(rulesSaved).toBeVisible()
  await expect(rulesSaved).toBeInViewport()

  await page.getByRole('button', { name: 'Add profile' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add profile' })
  await dialog.getByLabel('Profile name').fill('Staging')
  await dialog.getByLabel('API address').fill('not a url')
  await dialog.getByRole('button', { name: 'Save profile' }).click()
  await expect(dialog.getByLabel('API address')).toHaveAccessibleDescription(/Enter the API address/)
  await dialog.getByLabel('API address').fill('https://staging.example/api')
  await captureScreen(page, 'settings-profile-dialog')
  await dialog.getByRole('button', { name: 'Save profile' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('https://staging.example/api')).toBeVisible()

  await page.getByRole('button', { name: 'Edit profile Staging' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit profile' })
  await edit.getByLabel('Profile name').fill('Staging EU')
  await edit.getByRole('button', { name: 'Save profile' }).click()
  await expect(page.getByRole('button', { name: 'Edit profile Staging EU' })).toBeVisible()

  await page.getByRole('button', { name: 'Remove profile Staging EU' }).click()
  const confirm = page.getByRole('dialog', { name: 'Remove profile Staging EU?' })
  // Esc closes a dialog and changes nothing.
  await page.keyboard.press('Escape')
  await expect(confirm).toBeHidden()
  await expect(page.getByRole('button', { name: 'Remove profile Staging EU' })).toBeFocused()
  await page.getByRole('button', { name: 'Remove profile Staging EU' }).click()
  await confirm.getByRole('button', { name: 'Remove profile' }).click()
  await expect(page.getByText('https://staging.example/api')).toHaveCount(0)

  // Reloading keeps the settings (they live in main) and the connection (the secret is kept for the tab).
  await page.reload()
  await main.getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('checkbox', { name: 'An instance is ready (Running)' })).not.toBeChecked()

  // Ctrl+R refreshes the list instead of reloading the page; Ctrl+N opens the create form.
  await page.evaluate('window.marker = 42')
  await page.keyboard.press('Control+R')
  await page.keyboard.press('Control+N')
  await expect(page.getByRole('heading', { name: 'New instance' })).toBeVisible()
  expect(await page.evaluate('window.marker')).toBe(42)

  // The tray stand-in runs tray actions in main.
  await page
    .getByRole('navigation', { name: 'Tray menu' })
    .getByRole('button', { name: /New volume/ })
    .click()
  await expect(page.getByRole('heading', { name: 'New volume' })).toBeVisible()
})
