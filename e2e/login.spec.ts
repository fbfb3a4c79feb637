import { captureScreen, expect, test } from './web-fixture'

test.describe.configure({ timeout: 120_000 })

test('a wrong password shows the retries left, then the right one shows the list', async ({ page, shell }) => {
  await page.goto(shell.url)
  await expect(page.getByRole('heading', { name: 'Sign in to Cloud Tray' })).toBeVisible()
  // First run: the Sandbox is preselected with its demo account.
  await expect(page.getByLabel('Profile')).toHaveValue('sandbox')
  await expect(page.getByLabel('User name')).toHaveValue('demo')
  await captureScreen(page, 'login')

  await page.getByLabel('Password', { exact: true }).fill('not-the-password')
  await page.getByRole('button', { name: 'Sign in' }).click()
  const alert = page.getByRole('alert')
  await expect(alert).toContainText('Wrong user name or password.')
  await expect(alert).toContainText(/\d+ attempts? left before the account locks/)
  await captureScreen(page, 'login-error')

  await page.getByLabel('Password', { exact: true }).fill('demo')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No instances yet' })).toBeVisible()
  await captureScreen(page, 'instances-empty')
  // The secret is taken out of the address bar once the page has it.
  expect(page.url()).not.toContain('secret')
})
