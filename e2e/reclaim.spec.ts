/**
 * A spot instance reclaimed by the provider through the real app (#26: `npm run web`, the Sandbox's
 * preempt and stock control routes): with "Relaunch automatically when reclaimed", one new instance
 * with the same spec once stock allows; without it, the notification says so and "Relaunch like
 * this one" opens the review step with the same spec.
 *
 * The core and the Sandbox share a ManualClock, so the watcher's and the watch's minutes pass in
 * simulated time.
 */
import type { Page } from '@playwright/test'
import type { WebShell } from '../src/web/server'
import { addPort, addStorage, chooseLaunch } from './launch-helpers'
import { sandboxControl } from './sandbox-control'
import { clockedTest } from './clocked-test'
import { captureScreen, expect, signIn } from './web-fixture'

const test = clockedTest

test.describe.configure({ timeout: 150_000 })

const IMAGE = 'img-pytorch-2.5-cuda12.4'
const SPOT = 'gpu-rtx4090-1x-spot'
const US_WEST = '6f1c2a4e-8d3b-4c5a-9e7f-1a2b3c4d5e6f'

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' })
const details = (page: Page) => page.getByRole('complementary', { name: 'Instance details' })
const spots = (shell: WebShell) =>
  shell
    .emulator()
    .instances('demo')
    .filter((i) => i.instanceSpecInfo.name === 'spot-job')

/** Signed in, with a spot RTX 4090 launched through the form with a volume and a port, Running: where both tests start. */
async function signedInWithSpot(page: Page, shell: WebShell, tick: (ms: number) => Promise<void>): Promise<void> {
  await signIn(page, shell)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'New instance' }).click()
  await page.getByLabel('Name', { exact: true }).fill('spot-job')
  await chooseLaunch(page, { type: /^1 × RTX-4090-SPOT/, image: IMAGE })
  await addStorage(page, { mountPath: '/data', name: 'datasets', id: 'vol-123' })
  await addPort(page, '8888')
  await page.getByRole('button', { name: 'Create instance' }).click()
  await page.getByRole('dialog', { name: 'Review and launch' }).getByRole('button', { name: 'Launch' }).click()
  await expect(details(page).getByRole('heading', { name: 'spot-job' })).toBeVisible()
  await tick(5_000)
  await expect(page.getByRole('row', { name: /spot-job/ })).toContainText('Running')
}

/** The provider reclaims the spot instance, and the watcher's next read (35 s on) sees it gone: the instance it was. */
async function reclaim(shell: WebShell, tick: (ms: number) => Promise<void>) {
  const [old] = spots(shell)
  await sandboxControl(shell, '/preempt', { instanceId: old!.instanceMetadata.instanceId })
  await tick(35_000)
  return old!
}

test('with "Relaunch automatically when reclaimed": one new instance with the same spec once stock allows', async ({
  page,
  shell,
  tick
}) => {
  await signedInWithSpot(page, shell, tick)
  await details(page).getByRole('checkbox', { name: 'Relaunch automatically when reclaimed' }).check()
  const rule = details(page).getByRole('form', { name: 'Relaunch rule' })
  await rule.getByRole('spinbutton', { name: 'At most ($ per hour)' }).fill('1')
  await rule.getByRole('spinbutton', { name: 'Keep trying for (hours)' }).fill('6')
  await rule.getByRole('button', { name: 'Turn on' }).click()
  await expect(details(page)).toContainText('On: at most $1.00/h, for up to 6 h after a reclaim, with the same volumes.')
  await captureScreen(page, 'relaunch-rule')

  await sandboxControl(shell, '/stock', { instanceTypeId: SPOT, region: US_WEST, inStock: false })
  const old = await reclaim(shell, tick)
  await expect(toasts(page).getByText('«spot-job» was reclaimed by the provider')).toBeVisible()
  await expect(
    toasts(page).getByText(/relaunches it with the same settings and volumes as soon as stock allows, at most \$1\.00\/h/)
  ).toBeVisible()
  const tray = page.getByRole('navigation', { name: 'Tray menu' })
  await expect(tray).toContainText('Waiting for stock (1)')
  await tick(5 * 60_000)
  expect(spots(shell)).toHaveLength(1)

  await sandboxControl(shell, '/stock', { instanceTypeId: SPOT, region: US_WEST, inStock: true })
  await tick(60_000)
  await expect(toasts(page).getByText('Launched «spot-job» in us-west-1')).toBeVisible()
  await tick(5 * 60_000)
  const both = spots(shell)
  expect(both).toHaveLength(2)
  const fresh = both.find((i) => i.instanceMetadata.instanceId !== old.instanceMetadata.instanceId)!
  const spec = (i: typeof fresh) => ({
    type: i.instanceSpecInfo.instanceTypeInfo.instanceId,
    region: i.instanceSpecInfo.regionInfo.regionId,
    billing: i.instanceSpecInfo.instanceBillingInfo.chargeMode,
    spot: i.instanceSpecInfo.isSpotInstance,
    storages: i.instanceSpecInfo.remoteStorages,
    ports: i.instanceSpecInfo.nodePorts.map((p) => p.port).sort(),
    image: i.instanceSpecInfo.imageInfo?.name
  })
  expect(spec(fresh)).toEqual(spec(old))
  await expect(tray).not.toContainText('Waiting for stock')
})

test('without it: the notification says it was reclaimed, and Relaunch like this one opens the review with the same spec', async ({
  page,
  shell,
  tick
}) => {
  await signedInWithSpot(page, shell, tick)
  await reclaim(shell, tick)
  const notice = toasts(page).getByRole('status').filter({ hasText: '«spot-job» was reclaimed by the provider' })
  await expect(notice).toBeVisible()
  await captureScreen(page, 'reclaimed')
  await notice.getByRole('button', { name: 'Relaunch like this one' }).click()
  const review = page.getByRole('dialog', { name: 'Review and launch' })
  await expect(review).toBeVisible()
  await expect(review).toContainText('Filled from «spot-job», as Cloud Tray launched it.')
  await expect(review).toContainText('1 × RTX-4090-SPOT')
  await expect(review).toContainText('datasets at /data')
  await expect(review).toContainText('8888')
  await tick(5 * 60_000)
  expect(spots(shell)).toHaveLength(1)
  await review.getByRole('button', { name: 'Launch' }).click()
  await expect(page.getByRole('row', { name: /spot-job/ })).toHaveCount(2)
  expect(spots(shell)).toHaveLength(2)
})
