/**
 * Issue #15, a real account's first hour, in Chromium through `npm run web`: sign in with an API
 * key, launch from the catalog with a review of the cost, a stuck image told once, the balance
 * and its warning, the list at 1280×800 with nothing spilling out of its cell or dialog, a port
 * typed but not added, Settings while signed out, volumes followed until ready.
 */
import type { Locator, Page } from '@playwright/test'
import { NEVER_PULLING_IMAGE_ID } from '../src/emulator/index'
import { emulatorCreateRequest } from '../src/emulator/testing/http-client'
import { chooseLaunch } from './launch-helpers'
import { captureScreen, expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 150_000 })
test.use({ viewport: { width: 1280, height: 800 } })

const SINGAPORE = '0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b'
const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' })
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' })

/** Every descendant of `container` matched by `inner` lies inside the container's box (1 px of rounding). */
async function expectInside(container: Locator, inner: Locator, what: string): Promise<void> {
  const outer = await container.boundingBox()
  expect(outer, `${what}: container on screen`).not.toBeNull()
  for (const element of await inner.all()) {
    const box = await element.boundingBox()
    if (!box || box.width === 0) continue
    const name = `${what}: ${(await element.textContent())?.trim().slice(0, 40)}`
    expect(box.x, name).toBeGreaterThanOrEqual(outer!.x - 1)
    expect(box.y, name).toBeGreaterThanOrEqual(outer!.y - 1)
    expect(box.x + box.width, name).toBeLessThanOrEqual(outer!.x + outer!.width + 1)
    expect(box.y + box.height, name).toBeLessThanOrEqual(outer!.y + outer!.height + 1)
  }
}

test('a new user signs in with an API key, picks a type by GPU in a region by name, sees the cost, launches, and it boots', async ({
  page,
  shell
}) => {
  const key = shell.emulator().createApiKey('demo')
  await page.goto(shell.url)
  await page.getByRole('radio', { name: 'A console API key' }).check()
  await expect(page.getByLabel('API key', { exact: true })).toHaveAccessibleDescription(
    /Sandbox has no console: make one in Settings → Sandbox → Make an API key/
  )
  await expect(page.getByRole('checkbox', { name: 'Remember me on this computer' })).toBeChecked()
  await page.getByLabel('API key', { exact: true }).fill('ct_not-my-key')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('alert')).toContainText('The cloud refused this API key')
  await page.getByLabel('API key', { exact: true }).fill(key)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
  const session = await shell.core.handle('session.get', undefined, { clientId: 'test' })
  expect(session).toMatchObject({ ok: true, value: { method: 'api-key', status: 'signed-in' } })
  expect(session.ok && session.value.expiresAt).toBeUndefined()

  await page.keyboard.press('Control+N')
  await page.getByLabel('Name', { exact: true }).fill('first-launch')
  // Regions by name; in us-west-1 the 8-GPU H100 is out of stock and cannot be picked.
  const region = page.getByLabel('Region', { exact: true })
  await expect(region.locator('option')).toHaveText(['us-west-1', 'ap-southeast-1', 'eu-central-1'])
  await expect(region.locator('option', { hasText: /[0-9a-f]{8}-/ })).toHaveCount(0)
  const eight = page.getByRole('radio', { name: /^8 × H100-SXM-80GB / })
  await expect(eight).toBeDisabled()
  await expect(page.locator('label', { has: eight })).toContainText('Out of stock')
  await expect(page.getByRole('group', { name: /H100-SXM-80GB-SPOT\s*Spot/ })).toBeVisible()
  await captureScreen(page, 'create-from-catalog')
  await region.selectOption({ label: 'ap-southeast-1' })
  await expect(eight).toBeEnabled()
  await page.getByRole('radio', { name: /^1 × H100-SXM-80GB \$2\.49 \/ hour In stock/ }).check()
  await page.getByLabel('Image', { exact: true }).selectOption({ label: 'PyTorch 2.5.1 / CUDA 12.4 / Python 3.11 (Sandbox)' })
  await page.getByLabel('Billing mode').selectOption('perWeek')
  await page.getByLabel(/^Duration/).fill('2')

  await page.getByRole('button', { name: 'Create instance' }).click()
  const review = page.getByRole('dialog', { name: 'Review and launch' })
  await expect(review).toContainText('1 × H100-SXM-80GB')
  await expect(review).toContainText('ap-southeast-1')
  await expect(review).toContainText('PyTorch 2.5.1 / CUDA 12.4 / Python 3.11 (img-pytorch-2.5-cuda12.4)')
  await expect(review.getByRole('note', { name: 'Cost' })).toHaveText('Cost: $334.66 per week × 2 weeks = $669.32.')
  await expect(review.getByRole('note', { name: 'Spot risk' })).toHaveCount(0)
  expect(shell.emulator().instances('demo')).toHaveLength(0)
  await captureScreen(page, 'review-launch')
  await review.getByRole('button', { name: 'Launch' }).click()

  const row = page.getByRole('row', { name: /first-launch/ })
  await expect(row).toContainText('Running', { timeout: 20_000 })
  const [created] = shell.emulator().instances('demo')
  expect(created!.instanceSpecInfo).toMatchObject({
    instanceTypeInfo: { instanceId: 'gpu-h100-sxm-1x' },
    regionInfo: { regionId: SINGAPORE }
  })
  expect(created!.instanceSpecInfo.instanceBillingInfo).toMatchObject({ chargeMode: 'perWeek', duration: 2 })

  // The notebook on a key session says, before the click, that it asks for the password once.
  const notebook = page.getByRole('button', { name: 'Open notebook first-launch (asks for your password once)' })
  await notebook.click()
  const ask = page.getByRole('dialog', { name: 'Your password, once, for notebooks' })
  await ask.getByLabel('Password for demo').fill(shell.sandbox().password)
  await ask.getByRole('button', { name: 'Sign in and open' }).click()
  await expect(page.getByRole('list', { name: 'Recorded effects' })).toContainText(/Notebook window https:\/\//)
  await expect(page.getByRole('button', { name: 'Open notebook first-launch' })).toBeVisible()
})

test('a stuck image gives one notification, and the list says so in place', async ({ page, shell }) => {
  await signIn(page, shell)
  await page.keyboard.press('Control+N')
  await page.getByLabel('Name', { exact: true }).fill('never-pulls')
  await chooseLaunch(page, { type: /^1 × RTX-4090 /, image: NEVER_PULLING_IMAGE_ID })
  await page.getByRole('button', { name: 'Create instance' }).click()
  await page.getByRole('dialog', { name: 'Review and launch' }).getByRole('button', { name: 'Launch' }).click()

  const row = page.getByRole('row', { name: /never-pulls/ })
  await expect(row).toContainText('Stuck starting', { timeout: 20_000 })
  const told = toasts(page).getByText('«never-pulls» is stuck starting')
  await expect(told).toHaveCount(1)
  await expect(toasts(page)).toContainText('Back-off restarting failed container download-image')
  const detail = page.getByRole('complementary', { name: 'Instance details' })
  await expect(detail.getByRole('note', { name: 'Stuck start' })).toBeVisible()
  await expect(detail).toContainText('the cloud says Starting')
  await captureScreen(page, 'stuck-start')
  // Polls go on; the notification is not repeated, nor is the OS one.
  await page.getByRole('button', { name: 'Refresh', exact: true }).click()
  await page.getByRole('button', { name: 'Refresh', exact: true }).click()
  await expect(row).toContainText('Stuck starting')
  await expect(told).toHaveCount(1)
  await expect(page.getByRole('list', { name: 'Recorded effects' }).getByText(/is stuck starting/)).toHaveCount(1)
  // Only what a person waits for was toasted: no "Initializing → PullingImage" on the way.
  await expect(toasts(page).getByText(/→/)).toHaveCount(0)
})

test('the balance shows in the window and the tray, and its low-balance warning fires', async ({ page, shell }) => {
  shell.emulator().setBalance('demo', { balance: 4.2, voucher: 5 })
  await signIn(page, shell)
  const balance = page.getByRole('status', { name: 'Balance' })
  await expect(balance).toContainText('Balance low: $4.20')
  await expect(balance).toContainText('+ $5.00 vouchers and credits')
  await expect(toasts(page).getByText('Balance low: $4.20')).toHaveCount(1)
  await expect(page.getByRole('navigation', { name: 'Tray menu' })).toContainText('Balance low: $4.20')
  await captureScreen(page, 'balance-low')

  // The user lowers the level: no longer low; raising it above the balance warns again, once.
  await mainNav(page).getByRole('button', { name: 'Settings' }).click()
  const level = page.getByLabel('Warn when the balance falls below ($)')
  await expect(level).toHaveValue('10')
  await level.fill('2')
  await page.getByRole('button', { name: 'Save alert levels' }).click()
  await expect(balance).toContainText('Balance: $4.20')
  await level.fill('50')
  await page.getByRole('button', { name: 'Save alert levels' }).click()
  await expect(balance).toContainText('Balance low: $4.20')
  await expect(toasts(page).getByText('Balance low: $4.20')).toHaveCount(2)
})

test('at 1280×800 the list shows GPU, region, price and uptime, and nothing spills out of its cell or dialog', async ({ page, shell }) => {
  const control = shell.emulator()
  await control.seedInstances('demo', 1, {
    name: 'a-rather-long-instance-name-for-the-list',
    instanceTypeId: 'gpu-h100-sxm-8x',
    regionId: SINGAPORE
  })
  const [failed] = await control.seedInstances('demo', 1, { name: 'broken' })
  control.setStatus(failed!, 'StartingFailed', { diagnosisMessage: 'No capacity.' })
  await signIn(page, shell)
  const request = emulatorCreateRequest({ name: 'ports', nodePorts: [8888, 6006] })
  const created = await shell.core.handle('instances.create', { request }, { clientId: 'test' })
  expect(created.ok).toBe(true)
  await mainNav(page).getByRole('button', { name: 'Instances' }).click()
  const table = page.getByRole('table', { name: 'Instances' })
  for (const header of ['GPU', 'Region', 'Price', 'Uptime']) await expect(table.getByRole('columnheader', { name: header })).toBeVisible()
  const long = page.getByRole('row', { name: /a-rather-long-instance-name/ })
  await expect(long).toContainText('8 × H100 80GB HBM3')
  await expect(long).toContainText('ap-southeast-1')
  await expect(long).toContainText('$19.92/h')
  await expect(long.getByRole('cell').nth(5)).toHaveText(/just now|\d+ min/)
  const portsRow = page.getByRole('row', { name: /^Details of ports / })
  await expect(portsRow).toContainText('Running', { timeout: 20_000 })
  // A long status reads in people's words, inside its cell.
  const brokenRow = page.getByRole('row', { name: /broken/ })
  await expect(brokenRow).toContainText('Failed to start')
  for (const row of [long, brokenRow, portsRow]) {
    for (const cell of await row.getByRole('cell').all()) await expectInside(cell, cell.locator('*'), 'a list cell')
    await expectInside(row, row.getByRole('cell'), 'a list row')
  }
  await expectInside(table, table.getByRole('button'), 'the list')
  await captureScreen(page, 'instances-1280')

  await page.getByRole('button', { name: 'Ports ports' }).click()
  const dialog = page.getByRole('dialog', { name: 'Ports of ports' })
  await expect(dialog.getByRole('button', { name: 'Open port 8888 in browser' })).toBeVisible()
  await expectInside(dialog, dialog.locator('td *'), 'the Ports dialog')
  await captureScreen(page, 'ports-dialog-1280')
  await dialog.getByRole('button', { name: 'Close' }).click()

  // The tray names each port by its inside port, and offers Delete behind the same confirmation.
  const tray = page.getByRole('navigation', { name: 'Tray menu' })
  await tray.locator('summary', { hasText: /^ports — Running/ }).click()
  await expect(tray.getByRole('button', { name: /^8888 → http:\/\/127\.0\.0\.1:\d+$/ })).toBeVisible()
  await tray.getByRole('button', { name: 'Delete for good…' }).first().click()
  const confirm = page.getByRole('dialog', { name: /^Delete .+\?$/ })
  await expect(confirm.getByRole('button', { name: 'Delete for good' })).toBeDisabled()
  await confirm.getByRole('button', { name: 'Cancel' }).click()
})

test('a port typed but not added is added on Create, or stops it with a message next to the box', async ({ page, shell }) => {
  await signIn(page, shell)
  await page.keyboard.press('Control+N')
  await page.getByLabel('Name', { exact: true }).fill('typed-port')
  await chooseLaunch(page, { type: /^1 × A100-PCIE-80GB /, image: 'img-pytorch-2.5-cuda12.4' })
  const box = page.getByLabel('Ports to publish')
  await box.fill('22')
  await page.getByRole('button', { name: 'Create instance' }).click()
  await expect(box).toHaveAccessibleDescription(/“22” is still in the port box and was not added: Port 22 \(SSH\) is always forwarded/)
  await expect(page.getByRole('dialog', { name: 'Review and launch' })).toHaveCount(0)
  await expect(box).toHaveValue('22')

  await box.fill('7777')
  await page.getByRole('button', { name: 'Create instance' }).click()
  const review = page.getByRole('dialog', { name: 'Review and launch' })
  await expect(review).toContainText(/Published ports\s*7777/)
  await review.getByRole('button', { name: 'Back to the form' }).click()
  await expect(page.getByRole('list', { name: 'Ports chosen to publish' }).getByRole('listitem')).toHaveText([/^\s*7777\s*×\s*$/])
  await expect(box).toHaveValue('')
})

test('Settings open while signed out, from the sign-in page and from a sign-in error', async ({ page, shell }) => {
  await page.goto(shell.url)
  await page.getByRole('button', { name: 'Profiles and settings' }).click()
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible()
  await page.getByRole('button', { name: 'Add profile' }).click()
  const editor = page.getByRole('dialog', { name: 'Add profile' })
  await editor.getByLabel('Profile name').fill('Nowhere')
  await editor.getByLabel('API address').fill('http://127.0.0.1:9/api')
  await editor.getByRole('button', { name: 'Save profile' }).click()
  await page.getByRole('button', { name: 'Back to sign in' }).click()

  await page.getByLabel('Profile', { exact: true }).selectOption({ label: 'Nowhere' })
  await page.getByLabel('User name').fill('demo')
  await page.getByLabel('Password', { exact: true }).fill('x')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Open Settings' }).click()
  // At once, signed out: the profile can be fixed where the error pointed.
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible()
  await page.getByRole('button', { name: 'Edit profile Nowhere' }).click()
  await page.getByRole('dialog', { name: 'Edit profile' }).getByLabel('API address').fill(shell.sandbox().apiUrl)
  await page.getByRole('dialog', { name: 'Edit profile' }).getByRole('button', { name: 'Save profile' }).click()
  await page.getByRole('button', { name: 'Back to sign in' }).click()
  await page.getByLabel('User name').fill('demo')
  await page.getByLabel('Password', { exact: true }).fill(shell.sandbox().password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
})

test.describe('volumes', () => {
  test.use({ shellOptions: { emulator: { bootMs: 1500, stopMs: 500, volumeReadyMs: 4_000 } } })

  test("a Pending volume is followed until Available; the form speaks a person's words", async ({ page, shell }) => {
    await signIn(page, shell)
    await mainNav(page).getByRole('button', { name: 'Volumes' }).click()
    await page.getByRole('button', { name: 'New volume', exact: true }).first().click()
    await page.getByLabel('Volume name').fill('datasets')
    await expect(page.getByLabel('Region', { exact: true }).locator('option')).toHaveText(['us-west-1', 'ap-southeast-1', 'eu-central-1'])
    const size = page.getByLabel('Size (GB)')
    await size.fill('9007199254740991')
    await page.getByRole('button', { name: 'Create volume' }).click()
    await expect(size).toHaveAccessibleDescription(/Cloud Tray creates volumes of up to 1,000,000 GB \(1 PB\)\./)
    await expect(page.getByText(/expected|Too big/)).toHaveCount(0)
    await size.fill('200')
    await page.getByRole('button', { name: 'Create volume' }).click()

    const row = page.getByRole('row', { name: /datasets/ })
    await expect(row).toContainText('Pending')
    await expect(row).toContainText('us-west-1')
    // No Refresh pressed: the list follows it.
    await expect(row).toContainText('Available', { timeout: 15_000 })
  })
})
