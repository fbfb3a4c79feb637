/**
 * The availability watch through the real app (#26: `npm run web`, the real core and renderer in
 * Chromium, the Sandbox): an out-of-stock offer's "Notify me when available", stock set through the
 * Sandbox's control route, the notification within one watch interval, "Launch now" to the review
 * step and the instance; "Launch automatically" with a ceiling below the price creates nothing, one
 * above it creates exactly one instance even when the create's answer is lost.
 *
 * The core and the Sandbox share a ManualClock, so the watch's minute passes in simulated time.
 */
import type { Page } from '@playwright/test'
import type { WebShell } from '../src/web/server'
import { sandboxControl } from './sandbox-control'
import { clockedTest } from './clocked-test'
import { captureScreen, expect, signIn } from './web-fixture'

const test = clockedTest

test.describe.configure({ timeout: 150_000 })

const INTERVAL_MS = 60_000
const IMAGE = 'img-pytorch-2.5-cuda12.4'
const H100X8 = 'gpu-h100-sxm-8x'
const US_WEST = '6f1c2a4e-8d3b-4c5a-9e7f-1a2b3c4d5e6f'
const NOTIFY = 'Notify me when available: 8 × H100-SXM-80GB'

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' })
const named = (shell: WebShell, name: string) =>
  shell
    .emulator()
    .instances('demo')
    .filter((i) => i.instanceSpecInfo.name === name)

/** The create form with a name and an image, at an out-of-stock 8-GPU H100 in US West. */
async function formFor(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'New instance' }).click()
  await page.getByLabel('Name', { exact: true }).fill(name)
  await page.getByLabel('Image', { exact: true }).selectOption(IMAGE)
  await expect(page.getByLabel('Region', { exact: true })).toHaveValue(US_WEST)
  await expect(page.getByRole('radio', { name: /^8 × H100-SXM-80GB/ })).toBeDisabled()
}

/** That form's "Notify me when available", for the launch named `name`; with `auto`, launched by itself under the ceiling. */
async function watchFor(page: Page, name: string, auto?: { ceiling: string }): Promise<void> {
  await formFor(page, name)
  await page.getByRole('button', { name: NOTIFY }).click()
  const dialog = page.getByRole('dialog', { name: 'Notify me when available' })
  await expect(dialog.getByRole('checkbox', { name: 'us-west-1' })).toBeChecked()
  if (auto) {
    await dialog.getByRole('checkbox', { name: 'Launch automatically when it is in stock' }).check()
    await dialog.getByRole('spinbutton', { name: 'At most ($ per hour)' }).fill(auto.ceiling)
    await dialog.getByRole('button', { name: 'Watch and launch' }).click()
  } else {
    await dialog.getByRole('button', { name: 'Notify me' }).click()
  }
  await expect(dialog).toBeHidden()
}

test('Notify me when available → stock comes → the notice within one interval → Launch now → the review → created', async ({
  page,
  shell,
  tick
}) => {
  await signIn(page, shell)
  await watchFor(page, 'big-train')
  const list = page.getByRole('region', { name: 'Waiting for stock' })
  await expect(list).toContainText('8 × H100-SXM-80GB, per hour, in us-west-1')
  await expect(list).toContainText('waiting')
  // The tray lists it too, and it can be cancelled there.
  const tray = page.getByRole('navigation', { name: 'Tray menu' })
  await expect(tray).toContainText('Waiting for stock (1)')
  await captureScreen(page, 'stock-watch-waiting')

  await tick(5 * INTERVAL_MS)
  await expect(toasts(page).getByText(/^In stock/)).toHaveCount(0)

  // Stock comes, through the Sandbox's control route: told within one interval.
  await sandboxControl(shell, '/stock', { instanceTypeId: H100X8, region: US_WEST, inStock: true })
  await tick(INTERVAL_MS)
  const notice = toasts(page).getByRole('status').filter({ hasText: 'In stock: 8 × H100-SXM-80GB in us-west-1' })
  await expect(notice).toBeVisible()
  await expect(notice.getByRole('button', { name: 'Dismiss', exact: true })).toBeVisible()
  await captureScreen(page, 'stock-watch-in-stock')
  expect(named(shell, 'big-train')).toEqual([])

  await notice.getByRole('button', { name: 'Launch now' }).click()
  const review = page.getByRole('dialog', { name: 'Review and launch' })
  await expect(review).toBeVisible()
  await expect(review.getByRole('note', { name: 'Cost' })).toContainText('$19.92 per hour')
  await expect(review.getByRole('note', { name: 'Stock' })).toContainText('In stock in us-west-1 now')
  await expect(review).toContainText('big-train')
  await captureScreen(page, 'stock-watch-review')
  await review.getByRole('button', { name: 'Launch' }).click()

  await expect(page.getByRole('complementary', { name: 'Instance details' }).getByRole('heading', { name: 'big-train' })).toBeVisible()
  expect(named(shell, 'big-train')).toHaveLength(1)
  // The watch ended with the instance it waited for.
  await expect(tray).not.toContainText('Waiting for stock')
})

test('Launch automatically: a ceiling below the price creates nothing; above it, exactly one instance though the answer is lost', async ({
  page,
  shell,
  tick
}) => {
  await signIn(page, shell)
  // $19.92/h: a $10 ceiling never launches it, a $25 one does.
  await watchFor(page, 'too-dear', { ceiling: '10' })
  await watchFor(page, 'auto-big', { ceiling: '25' })
  const list = page.getByRole('region', { name: 'Waiting for stock' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  await expect(list).toContainText('Launches by itself at ≤ $10.00/h')

  // The automatic create is carried out and its answer lost: create-once finds what it made.
  await sandboxControl(shell, '/faults/lose-next', { count: 1, route: '/instance/create' })
  await sandboxControl(shell, '/stock', { instanceTypeId: H100X8, region: US_WEST, inStock: true })
  await tick(INTERVAL_MS)
  await expect(toasts(page).getByText('Launched «auto-big» in us-west-1')).toBeVisible()
  await tick(5 * INTERVAL_MS)
  expect(named(shell, 'auto-big')).toHaveLength(1)
  expect(named(shell, 'too-dear')).toEqual([])
  expect(shell.emulator().requestCount('/instance/create')).toBe(1)

  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list).toContainText('is above your ceiling of $10.00/h, so Cloud Tray did not launch it')
  await captureScreen(page, 'stock-watch-ceiling')
  await list.getByRole('button', { name: /^Stop watching/ }).click()
  await expect(list).toBeHidden()
})
