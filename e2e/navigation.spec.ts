/**
 * #24, keyboard and the session's edges: a skip link first; after Ctrl+N or a view change the
 * focus is in the new view (its first field, or its heading); signing out from Settings lands on
 * sign-in; after the tray's Quit the page says Cloud Tray has quit, with no error and no endless
 * "Reconnecting…".
 */
import { expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 90_000 })

test('a skip link, and the focus follows every view change', async ({ page, shell }) => {
  await signIn(page, shell)
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()

  // Ctrl+N: the form's first field, ready to type in.
  await page.keyboard.press('Control+N')
  await expect(page.getByLabel('Name', { exact: true })).toBeFocused()
  await page.keyboard.type('typed-at-once')
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('typed-at-once')

  // A view change from the sidebar: the new view's heading, so the next Tab starts inside it.
  const nav = page.getByRole('navigation', { name: 'Main' })
  await nav.getByRole('button', { name: 'Volumes' }).click()
  await expect(page.getByRole('heading', { name: 'Volumes', exact: true })).toBeFocused()
  await nav.getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeFocused()
  await nav.getByRole('button', { name: 'New instance' }).click()
  await expect(page.getByLabel('Name', { exact: true })).toBeFocused()

  // The skip link is the first Tab stop of a fresh page, and takes the keyboard past the sidebar.
  await nav.getByRole('button', { name: 'Instances' }).click()
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeFocused()
})

test('signing out from Settings lands on sign-in', async ({ page, shell }) => {
  await signIn(page, shell)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Sign out' }).first().click()
  await expect(page.getByRole('heading', { name: 'Sign in to Cloud Tray' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Back to sign in' })).toHaveCount(0)
  // Signing in again opens the list.
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
})

test('after the tray’s Quit the page says Cloud Tray has quit: no error, no endless reconnecting', async ({ page, shell }) => {
  await signIn(page, shell)
  const tray = page.getByRole('navigation', { name: 'Tray menu' })
  await tray.getByRole('button', { name: 'Quit' }).click()
  // Well past the first reconnect attempts (250 ms, 500 ms, …): quiet.
  await page.waitForTimeout(1500)
  await expect(page.getByText(/Reconnecting/)).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText(/Tray: Quit|lost/)).toHaveCount(0)
  await expect(page.getByText('Cloud Tray has quit.')).toBeVisible()
})
