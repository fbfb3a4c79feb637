/**
 * The app's cloud as an emulator of our own (not the Sandbox: the test plays the cloud through its
 * `control`), behind the lossy proxy (faults-proxy.ts) that can lose answers or drop requests
 * per path. `clockedLossyCloudTest` puts the core and that emulator on one ManualClock.
 */
import type { Page } from '@playwright/test'
import { startEmulator, type Emulator } from '../src/emulator/index'
import { ManualClock } from '../src/shared/clock'
import { startLossyProxy, type LossyProxy } from './faults-proxy'
import { expect, FAST_EMULATOR, test as base } from './web-fixture'

export const lossyCloudTest = base.extend<{ clock: ManualClock | undefined; upstream: Emulator; lossy: LossyProxy }>({
  clock: async ({}, use) => {
    await use(undefined)
  },
  upstream: async ({ clock }, use) => {
    const emulator = await startEmulator({ port: 0, ...(clock ? { clock } : {}), ...FAST_EMULATOR })
    await use(emulator)
    await emulator.close()
  },
  lossy: async ({ upstream }, use) => {
    const lossy = await startLossyProxy(upstream.baseUrl)
    await use(lossy)
    await lossy.close()
  },
  shellOptions: async ({ lossy, clock }, use) => {
    await use({ baseUrl: lossy.baseUrl, ...(clock ? { clock } : {}), emulator: FAST_EMULATOR })
  }
})

export const clockedLossyCloudTest = lossyCloudTest.extend<{ clock: ManualClock }>({
  clock: async ({}, use) => {
    await use(new ManualClock(Date.now()))
  }
})

/** Signs in to that cloud as demo (its password is demo: it is not the Sandbox, which makes one per install). */
export async function signInToOwnCloud(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.getByLabel('User name').fill('demo')
  await page.getByLabel('Password', { exact: true }).fill('demo')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
}
