/**
 * #24: the Sandbox has no console, so its Settings stand in for one: an API key for its account
 * (the sign-in's key hint points there, not to "the HPC-AI console"), and practice money, which is
 * what its low-balance notice asks for.
 */
import { expect, test } from './web-fixture'

test.describe.configure({ timeout: 90_000 })

test('make a Sandbox API key in Settings and sign in with it; add practice money', async ({ page, shell }) => {
  await page.goto(shell.url)
  await expect(page.getByRole('heading', { name: 'Sign in to Cloud Tray' })).toBeVisible()
  await page.getByRole('radio', { name: 'A console API key' }).check()
  const key = page.getByLabel('API key', { exact: true })
  await expect(key).toHaveAccessibleDescription(/Settings → Sandbox → Make an API key/)
  await expect(key).not.toHaveAccessibleDescription(/HPC-AI console/)
  await page.getByRole('button', { name: 'Make a Sandbox API key in Settings' }).click()

  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Make an API key' }).click()
  const made = page.getByLabel('Sandbox API key', { exact: true })
  await expect(made).not.toBeEmpty()
  const apiKey = (await made.textContent())!.trim()
  await page.getByRole('button', { name: 'Back to sign in' }).click()

  await page.getByRole('radio', { name: 'A console API key' }).check()
  await page.getByLabel('User name').fill('demo')
  await page.getByLabel('API key', { exact: true }).fill(apiKey)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
  await expect(page.getByRole('status', { name: 'Balance' })).toContainText('$100.00')

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'Add $100 of practice money' }).click()
  await expect(page.getByRole('status', { name: 'Balance' })).toContainText('$200.00')
})
