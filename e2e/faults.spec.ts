/**
 * Fault injection through the real app (`npm run web`'s shell: the real core, the real renderer
 * in Chromium) against the emulator's fault controls. For each fault the user must see what is
 * wrong, polling must back off and come back by itself, and nothing typed may be lost.
 *
 * The core and the emulator share a ManualClock here, so "down for 30 s" and the backoff schedule
 * run in simulated time: `tick` moves the clock a step at a time and gives the real sockets a
 * moment between steps (the only real waiting is for loopback I/O).
 */
import type { ManualClock } from '../src/shared/clock'
import type { EmulatorControl } from '../src/emulator/index'
import { unavailableKeychain } from '../src/main/account/testing/unavailable-keychain'
import type { WatchHealth } from '../src/shared/contract'
import { advanceClock, clockedTest as test } from './clocked-test'
import { lossyCloudTest, signInToOwnCloud } from './lossy-cloud'
import { chooseLaunch, expectLaunchKept, launchReviewed, type LaunchChoice } from './launch-helpers'
import { expect, FAST_EMULATOR, signIn, test as base } from './web-fixture'
import type { Page } from '@playwright/test'

const IMAGE = 'img-pytorch-2.5-cuda12.4'
/** Moves simulated time forward, by default in half-second steps: the backoff schedule is read to the step. */
const tick = (clock: ManualClock, ms: number, stepMs = 500): Promise<void> => advanceClock(clock, ms, stepMs)

/** Each failed poll as the core reports it: when it failed and when it will try again. */
interface FailedPoll {
  at: number
  retryAt: number
}

function recordFailedPolls(
  shell: { core: { subscribe: (sink: (event: string, payload: unknown) => void) => () => void } },
  clock: ManualClock
): FailedPoll[] {
  const failed: FailedPoll[] = []
  shell.core.subscribe((event, payload) => {
    const health = payload as WatchHealth
    if (event === 'watch.health' && health.state === 'failing' && health.retryAt !== undefined) {
      failed.push({ at: clock.now(), retryAt: health.retryAt })
    }
  })
  return failed
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' })
const failingBanner = (page: Page) => page.getByRole('status').filter({ hasText: 'Cannot refresh your instances' })

const LAUNCH: LaunchChoice = { type: /^1 × A100-PCIE-80GB /, image: IMAGE }

async function fillCreateForm(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+N')
  await expect(page.getByRole('heading', { name: 'New instance' })).toBeVisible()
  await page.getByLabel('Name', { exact: true }).fill(name)
  await chooseLaunch(page, LAUNCH)
}

async function expectFormKept(page: Page, name: string): Promise<void> {
  await expectLaunchKept(page, name, LAUNCH)
}

interface Fault {
  name: string
  start(control: EmulatorControl): Promise<void>
  /** Called once the app has met the fault (its first failed poll). */
  met?(control: EmulatorControl, clock: ManualClock): void
}

const FAULTS: Fault[] = [
  { name: 'a burst of 5xx answers', start: async (control) => control.faults.failNext(3, 503) },
  { name: 'connection resets', start: async (control) => control.faults.dropNext(3) },
  {
    name: 'the emulator down for 30 s',
    start: (control) => control.faults.setDown(true),
    // Down for 30 simulated seconds from the app's first failed look, whatever the test does then.
    met: (control, clock) => void clock.setTimeout(() => void control.faults.setDown(false), 30_000)
  }
]

for (const fault of FAULTS) {
  test(`${fault.name}: a banner, backoff, recovery on its own, the form kept`, async ({ page, shell, clock }) => {
    const control = shell.emulator()
    await control.seedInstances('demo', 3, { name: 'job' })
    await signIn(page, shell)
    await tick(clock, 3_000)
    await expect(page.getByRole('row', { name: /job-1/ })).toContainText('Running')

    // Typing in the create form while the cloud misbehaves.
    await fillCreateForm(page, 'kept-through-faults')

    const failed = recordFailedPolls(shell, clock)
    await fault.start(control)
    // The next scheduled poll meets the fault (at most one steady interval away).
    for (let waited = 0; failed.length === 0 && waited < 40_000; waited += 500) await tick(clock, 500)
    expect(failed.length, 'the app never noticed the fault').toBeGreaterThan(0)
    fault.met?.(control, clock)

    // The user is told, in words, and the list keeps what was last seen.
    await expect(failingBanner(page)).toBeVisible()
    await expect(failingBanner(page)).toContainText('The list shows what was last seen.')
    await tick(clock, 25_000)

    // Backoff: each wait before the next try is at least as long as the one before, and never
    // shorter than the normal fast poll (the jitter's least is exactly 2.5 s: Math.random() is
    // real here); far fewer tries than a fixed 2.5 s poller would make.
    const waits = failed.map((f) => f.retryAt - f.at)
    expect(failed.length).toBeGreaterThan(0)
    expect(failed.length).toBeLessThan(25_000 / 2_500)
    expect(waits[0]!).toBeGreaterThanOrEqual(2_500)
    for (let i = 1; i < waits.length; i++) expect(waits[i]!).toBeGreaterThanOrEqual(waits[i - 1]!)

    // Recovery without the user doing anything: the banner goes, the list is live again.
    await tick(clock, 120_000, 1_000)
    await expect(failingBanner(page)).toBeHidden()
    await control.seedInstances('demo', 1, { name: 'after' })
    await tick(clock, 60_000, 1_000)
    await mainNav(page).getByRole('button', { name: 'Instances' }).click()
    await expect(page.getByRole('row', { name: /after-1/ })).toBeVisible()

    // Nothing typed was lost.
    await mainNav(page).getByRole('button', { name: 'New instance' }).click()
    await expectFormKept(page, 'kept-through-faults')
  })
}

base('3 s of API latency: the create completes once, the form shows progress, no error', async ({ page, shell }) => {
  await signIn(page, shell)
  const control = shell.emulator()
  control.faults.setLatency(3_000)
  await fillCreateForm(page, 'slow-network')
  await page.getByRole('button', { name: 'Create instance' }).click()
  const launch = page.getByRole('dialog', { name: 'Review and launch' }).getByRole('button', { name: /^Launch/ })
  await launch.click()
  // A second click while the first is on its way must not send a second create.
  await launch.click({ timeout: 1_000 }).catch(() => undefined)
  const detail = page.getByRole('complementary', { name: 'Instance details' })
  await expect(detail.getByRole('heading', { name: 'slow-network' })).toBeVisible({ timeout: 20_000 })
  control.faults.setLatency(0)
  expect(control.instances('demo').filter((i) => i.instanceSpecInfo.name === 'slow-network')).toHaveLength(1)
  await expect(failingBanner(page)).toBeHidden()
})

lossyCloudTest('a create whose answer is lost is never duplicated', async ({ page, shell, upstream, lossy: lossyProxy }) => {
  await signInToOwnCloud(page, shell.url)

  await fillCreateForm(page, 'exactly-once')
  lossyProxy.loseAnswers('/instance/create', 1)
  await launchReviewed(page)

  // The cloud created it; the app never heard. Either the app finds it by name on its own, or it
  // says the outcome is unknown, keeps the form, and the user's retry finds it: never a second.
  const detail = page.getByRole('complementary', { name: 'Instance details' })
  const found = detail.getByRole('heading', { name: 'exactly-once' })
  const problem = page.getByRole('alert').first()
  await expect(found.or(problem)).toBeVisible({ timeout: 20_000 })
  if (!(await found.isVisible())) {
    await expectFormKept(page, 'exactly-once')
    await launchReviewed(page)
    await expect(found).toBeVisible({ timeout: 20_000 })
  }
  expect(upstream.control.instances('demo').filter((i) => i.instanceSpecInfo.name === 'exactly-once')).toHaveLength(1)
  expect(lossyProxy.forwarded('/api/instance/create')).toBe(1)
  await expect(page.getByRole('row', { name: /exactly-once/ })).toHaveCount(1)
})

/** A keychain that is not there at all (no Secret Service, a locked-down desktop). */
const missingKeychain = unavailableKeychain()

const noKeychain = base.extend({
  shellOptions: async ({}, use) => {
    await use({ emulator: FAST_EMULATOR, keychain: missingKeychain })
  }
})

noKeychain('a missing keychain: "Remember me" signs in from memory and says so, then stops offering it', async ({ page, shell }) => {
  await shell.emulator().seedInstances('demo', 1, { name: 'memory' })
  await page.goto(shell.url)
  // Nothing asks the keychain before the user chooses to be remembered (a locked keyring would
  // prompt for its password before the app had shown anything): the choice is offered.
  const remember = page.getByRole('checkbox', { name: 'Remember me on this computer' })
  await remember.check()
  await page.getByRole('button', { name: 'Sign in' }).click()
  // The session itself works, from memory, and the app says it ends when Cloud Tray quits.
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
  await expect(page.getByRole('row', { name: /memory-1/ })).toBeVisible()
  await expect(page.getByText(/The system keychain could not be reached/).first()).toBeVisible()
  const session = await shell.core.handle('session.get', undefined, { clientId: 'test' })
  expect(session.ok && session.value).toMatchObject({ status: 'signed-in', remembered: false, keychain: 'unavailable' })
  // Back at the sign-in form, it no longer offers what it cannot do.
  // The window's own Sign out (the page also shows the tray panel's).
  await page.getByRole('button', { name: 'Sign out' }).first().click()
  await expect(remember).toBeDisabled()
  await expect(page.getByText('No system keychain is available here')).toBeVisible()
})
