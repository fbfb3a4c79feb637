/**
 * The cost guard through the real app (`npm run web`: the real core, the real renderer in
 * Chromium, the Sandbox with real SSH servers): "stop when idle 2 min" on a running instance,
 * GPU readings over SSH from the emulated nvidia-smi (once its host key is trusted, in a terminal
 * as a user would; before that the details say why), the countdown notification with its
 * buttons, and then either the stop and the notice saying why, or "Keep running" and it stays up.
 *
 * The core and the emulator share a ManualClock, so minutes of probes and the 5-minute countdown
 * run in simulated time; `tick` (probe-clock.ts) moves it a step at a time and waits for each
 * probe that fell due over the real SSH socket before moving on.
 */
import type { Locator, Page } from '@playwright/test'
import { createReach } from '../src/emulator/reach/index'
import { probeClock } from '../src/main/cost/testing/probe-clock'
import { ManualClock } from '../src/shared/clock'
import { posixShellMissing, skipBecause } from '../src/shared/node/testing/platform-support'
import type { WebShell } from '../src/web/server'
import { captureScreen, expect, signIn, test as base } from './web-fixture'

const test = base.extend<{ clock: ManualClock; tick: (ms: number) => Promise<void> }>({
  clock: async ({}, use) => {
    await use(new ManualClock(Date.now()))
  },
  shellOptions: async ({ clock }, use) => {
    await use({ emulator: { bootMs: 1500, stopMs: 500, volumeReadyMs: 500 }, clock, reach: createReach() })
  },
  tick: async ({ clock, shell }, use) => {
    const cost = async () => {
      const answer = await shell.core.handle('cost.get', undefined, { clientId: 'e2e' })
      return answer.ok ? answer.value : undefined
    }
    await use(probeClock(clock, { cost, stepMs: 2_000, settle: () => new Promise((resolve) => setTimeout(resolve, 20)) }))
  }
})

test.describe.configure({ timeout: 180_000 })
// The instance's shell runs the emulated nvidia-smi (bash).
test.skip(skipBecause(posixShellMissing(), 'the cost guard spec'), posixShellMissing() ?? '')

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' })
const details = (page: Page) => page.getByRole('complementary', { name: 'Instance details' })

/**
 * A running Sandbox instance whose GPUs are read: first the details say why they cannot be (its
 * host key is not trusted yet), then the user trusts it in a terminal, and the probes read them.
 */
async function runningInstance(page: Page, shell: WebShell, tick: (ms: number) => Promise<void>): Promise<string> {
  const [instanceId] = await shell.emulator().seedInstances('demo', 1, { name: 'idle-trainer', instanceTypeId: 'gpu-h100-sxm-1x' })
  await tick(35_000)
  const row = page.getByRole('row', { name: /idle-trainer/ })
  await expect(row).toContainText('Running', { timeout: 20_000 })
  await page.getByRole('button', { name: 'Details of idle-trainer' }).click()
  await expect(
    details(page)
      .getByRole('note')
      .filter({ hasText: /host key .* is not trusted yet\. Open a terminal to the instance once/ })
  ).toBeVisible({ timeout: 20_000 })

  await row.getByRole('button', { name: /terminal/i }).click()
  const hostKey = page.getByRole('dialog', { name: 'Unknown host key' })
  await expect(hostKey).toBeVisible({ timeout: 20_000 })
  await hostKey.getByRole('button', { name: 'Accept and remember' }).click()
  await expect(page.getByRole('status').filter({ hasText: /^Connected$/ })).toBeVisible({ timeout: 20_000 })
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Instances' }).click()
  await page.getByRole('button', { name: 'Details of idle-trainer' }).click()

  // The probe that failed would wait 10 minutes before trying again (only the user could fix
  // it); the connection the terminal made brings a reading at once (#24). The probe and the look
  // after it run over real sockets, so on a loaded machine the reading may land after a step of
  // the clock: 2 s steps until it shows, at most half a simulated minute, far below the 10.
  await expect(async () => {
    await tick(2_000)
    await expect(details(page).getByText('GPU 0 % · 0 MiB of 80 GiB')).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 30_000, intervals: [0] })
  return instanceId!
}

/**
 * Moves simulated time half a minute at a time until the countdown notice shows, at most
 * `maxMs`. Readings come once a minute over real SSH, and on a loaded machine one can miss its
 * moment (a missed reading is never counted as idle), so the wait is for the notice, not for a
 * fixed time; that the rule waits two full idle minutes is the unit tests' to pin (rules, idle).
 */
async function tickUntilCountdown(page: Page, tick: (ms: number) => Promise<void>, maxMs = 6 * 60_000): Promise<Locator> {
  const notice = toasts(page).getByRole('status').filter({ hasText: '«idle-trainer-1» stops in 5 min' })
  for (let waited = 0; waited < maxMs; waited += 30_000) {
    await tick(30_000)
    if (await notice.isVisible()) return notice
  }
  await expect(notice).toBeVisible()
  return notice
}

async function stopWhenIdle(page: Page, minutes: number): Promise<void> {
  const detail = details(page)
  await detail.getByRole('checkbox', { name: 'Stop when idle' }).check()
  await detail.getByRole('spinbutton', { name: 'For (minutes)' }).fill(String(minutes))
  await detail.getByRole('button', { name: 'Save rules' }).click()
  await expect(detail.getByRole('list', { name: 'Rules of this instance' })).toContainText(
    `auto-stops when idle ${minutes} min (GPU below 5 %)`
  )
}

test('stop when idle 2 min: the countdown notice, then the stop and why', async ({ page, shell, tick }) => {
  await signIn(page, shell)
  const instanceId = await runningInstance(page, shell, tick)
  await stopWhenIdle(page, 2)
  // The Sandbox account has a balance: how long it lasts at this rate, in the window and the tray.
  await expect(page.getByRole('status', { name: 'Cost now' })).toContainText(/\$2\.49\/h for 1\s+instance\s*·\s*≈ \d+ h left/)
  await expect(page.getByRole('navigation', { name: 'Tray menu' })).toContainText(/≈ \d+ h left at \$2\.49\/h/)
  // The row says which rule would stop it.
  await expect(page.getByRole('row', { name: /idle-trainer/ })).toContainText('auto-stops when idle 2 min')

  // A busy GPU holds the rule off: set through the emulator's control, read over SSH.
  await shell.emulator().setGpu(instanceId, { utilization: 90, memoryUsedMiB: 40_960 })
  await tick(4 * 60_000)
  const detail = details(page)
  await expect(detail.getByText('GPU 90 % · 40 of 80 GiB')).toBeVisible()
  await expect(toasts(page).getByText(/stops in/)).toHaveCount(0)

  // Idle again: after 2 full minutes of idle readings, the countdown notice with its buttons.
  // (Readings come once a minute, so the first idle one may be up to a minute away: 3 min and a
  // half covers it, and the look that follows each reading.)
  await shell.emulator().setGpu(instanceId, { utilization: 0 })
  await tick(2 * 60_000)
  const notice = await tickUntilCountdown(page, tick)
  await expect(notice.getByRole('button', { name: 'Keep running' })).toBeVisible()
  await expect(notice.getByRole('button', { name: 'Stop now' })).toBeVisible()
  // The same choice across the top of the window and in the instance's details.
  await expect(page.getByRole('button', { name: 'Keep running: «idle-trainer-1»' })).toBeVisible()
  await expect(detail.getByRole('group', { name: 'Auto-stop countdown' })).toContainText(
    'because its GPUs were idle for 2 min (every GPU below 5 %)'
  )
  // The banner and the details say the time left the same way (#24: "less than a minute" beside 0:57).
  await expect(page.getByText(/^«idle-trainer-1» stops at \d\d:\d\d \(in \d+:\d\d\) because/)).toBeVisible()
  await expect(detail.getByRole('group', { name: 'Auto-stop countdown' })).toContainText(/\(in \d+:\d\d\)/)
  await captureScreen(page, 'cost-guard-countdown')

  // The countdown runs out: stopped through the Stop command, and the notice says why.
  await tick(5 * 60_000 + 10_000)
  await expect(toasts(page).getByText('Cloud Tray stopped «idle-trainer-1»')).toBeVisible()
  await expect(toasts(page).getByText(/because its GPUs were idle for 2 min/)).toBeVisible()
  await expect(page.getByRole('row', { name: /idle-trainer/ })).toContainText('Stopped', { timeout: 20_000 })
  expect(shell.emulator().instances('demo')[0]!.instanceRuntimeInfo.status).toBe('Stopped')
  // Its own stop is not announced as someone else's.
  await expect(toasts(page).getByText('stopped outside Cloud Tray')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Keep running: «idle-trainer-1»' })).toHaveCount(0)
  // The details say who stopped it and why, not the cloud's "Stopped at your request" (#24).
  await expect(detail.getByText(/^Stopped by Cloud Tray's cost guard at .+ because its GPUs were idle for 2 min/)).toBeVisible()
  await expect(detail.getByText('Stopped at your request.')).toHaveCount(0)
})

test('"Keep running" on the countdown: it stays up', async ({ page, shell, tick }) => {
  await signIn(page, shell)
  await runningInstance(page, shell, tick)
  await stopWhenIdle(page, 2)
  const notice = await tickUntilCountdown(page, tick)
  await notice.getByRole('button', { name: 'Keep running' }).click()
  await expect(page.getByRole('button', { name: 'Keep running: «idle-trainer-1»' })).toHaveCount(0)
  const detail = details(page)
  await expect(detail.getByText(/^until \d\d:\d\d: no rule acts before then$/)).toBeVisible()
  await tick(30 * 60_000)
  expect(shell.emulator().instances('demo')[0]!.instanceRuntimeInfo.status).toBe('Running')
  await expect(page.getByRole('row', { name: /idle-trainer/ })).toContainText('Running')
  await expect(toasts(page).getByText('Cloud Tray stopped «idle-trainer-1»')).toHaveCount(0)
})
