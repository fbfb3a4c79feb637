import { captureScreen, expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 120_000 })

test('filter and page through 120 instances', async ({ page, shell }) => {
  const ids = await shell.emulator().seedInstances('demo', 120, { name: 'batch' })
  for (const id of ids.slice(0, 3)) shell.emulator().setStatus(id, 'StartingFailed', { diagnosisReason: 'ImagePullBackOff' })
  await signIn(page, shell)
  await expect(page.getByText('120 instances', { exact: true })).toBeVisible()
  const table = page.getByRole('table', { name: 'Instances' })
  await expect(table).toHaveAttribute('aria-rowcount', '121')

  const name = page.getByRole('searchbox', { name: 'Name' })
  await name.fill('batch-11')
  await expect(page.getByText('10 of 120 instances')).toBeVisible()
  await expect(page.getByRole('row', { name: /batch-115/ })).toBeVisible()
  await captureScreen(page, 'instances-filtered')
  await name.fill('')

  const status = page.getByRole('combobox', { name: 'Status' })
  await status.selectOption({ label: 'Failed' })
  await expect(page.getByText('3 of 120 instances')).toBeVisible()
  // #15: in people's words (the raw StartingFailed is in the details).
  await expect(table.getByText('Failed to start')).toHaveCount(3)
  await name.fill('no-such-name')
  await expect(page.getByRole('heading', { name: 'No instance matches' })).toBeVisible()
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await expect(page.getByText('120 instances', { exact: true })).toBeVisible()

  // Server pages: 50 a page is three pages.
  await page.getByRole('combobox', { name: 'Per page' }).selectOption('50')
  const pager = page.getByRole('navigation', { name: 'Instance pages' })
  await expect(pager).toContainText('Page 1 of 3 · 1–50 of 120')
  await expect(table).toHaveAttribute('aria-rowcount', '51')
  await expect(pager.getByRole('button', { name: 'Previous page' })).toBeDisabled()
  await pager.getByRole('button', { name: 'Next page' }).click()
  await expect(pager).toContainText('Page 2 of 3 · 51–100 of 120')
  await pager.getByRole('button', { name: 'Next page' }).click()
  await expect(pager).toContainText('Page 3 of 3 · 101–120 of 120')
  await expect(table).toHaveAttribute('aria-rowcount', '21')
  await expect(pager.getByRole('button', { name: 'Next page' })).toBeDisabled()
  await captureScreen(page, 'instances-paged')

  // Every row is reachable by scrolling in the "All" view, though only the visible ones are rendered.
  await page.getByRole('combobox', { name: 'Per page' }).selectOption('all')
  const renderedRows = await table.getByRole('row').count()
  expect(renderedRows).toBeLessThan(80)
  const last = ids.length
  await name.fill(`batch-${String(last).padStart(3, '0')}`)
  await expect(page.getByRole('row', { name: new RegExp(`batch-${last}`) })).toBeVisible()
})

test('a banner says so while refreshing fails, and goes when it recovers', async ({ page, shell }) => {
  await shell.emulator().seedInstances('demo', 2, { name: 'kept' })
  await signIn(page, shell)
  await expect(page.getByRole('row', { name: /kept-1/ })).toBeVisible()
  await shell.emulator().faults.setDown(true)
  await page.keyboard.press('Control+R')
  const banner = page.getByRole('status').filter({ hasText: 'Cannot refresh your instances' })
  await expect(banner).toBeVisible({ timeout: 20_000 })
  // What was last seen stays listed.
  await expect(page.getByRole('row', { name: /kept-1/ })).toBeVisible()
  await captureScreen(page, 'health-banner')
  const retry = banner.getByRole('button', { name: 'Retry now' })
  // Still down: retrying at once fails again, and the banner and the list stay.
  await retry.click()
  await expect(banner).toBeVisible()
  await expect(page.getByRole('row', { name: /kept-1/ })).toBeVisible()
  await shell.emulator().faults.setDown(false)
  // Back up: the next backoff attempt clears the banner by itself. "Retry now" does it at once,
  // if the banner is still there to click (the automatic attempt may win the race).
  await retry.click({ timeout: 3_000 }).catch(() => undefined)
  await expect(banner).toBeHidden({ timeout: 20_000 })
})
