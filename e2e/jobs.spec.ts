/**
 * Jobs through the real app (`npm run web`, the Sandbox's real SSH servers and this machine's
 * tmux): "Run a job…" from the tray opens the dialog; `sleep 3; exit 7` with "Stop the instance
 * when it ends" runs in a session of its own; the instance's job list shows it running, then
 * failed with status 7; the notification says so, the cost guard's countdown starts, and when it
 * runs out (simulated minutes: the core shares a ManualClock) the instance stops.
 */
import type { Page } from '@playwright/test'
import { createReach } from '../src/emulator/reach/index'
import { ManualClock } from '../src/shared/clock'
import { posixShellMissing, skipBecause } from '../src/shared/node/testing/platform-support'
import { tmuxMissing } from '../src/main/ssh/testing/tmux'
import { openFirstTerminal } from './terminal-helpers'
import { captureScreen, expect, FAST_EMULATOR, signIn, test as base } from './web-fixture'

const test = base.extend<{ clock: ManualClock }>({
  clock: async ({}, use) => {
    await use(new ManualClock(Date.now()))
  },
  shellOptions: async ({ clock }, use) => {
    await use({ emulator: FAST_EMULATOR, clock, reach: createReach() })
  }
})

test.describe.configure({ timeout: 150_000 })
test.skip(skipBecause(posixShellMissing(), 'the jobs spec') || tmuxMissing(), posixShellMissing() ?? 'tmux is not installed')

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' })
const details = (page: Page) => page.getByRole('complementary', { name: 'Instance details' })

/** Moves simulated time in steps (each lets the core's timers run) until `done`. */
async function tickUntil(clock: ManualClock, done: () => Promise<boolean>, stepMs: number, maxMs: number): Promise<void> {
  for (let waited = 0; waited <= maxMs; waited += stepMs) {
    if (await done()) return
    clock.advance(stepMs)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

test('a job that fails with status 7: told, counted down, the instance stopped', async ({ page, shell, clock }) => {
  await shell.emulator().seedInstances('demo', 1, { name: 'job-e2e' })
  await signIn(page, shell)
  const row = page.getByRole('row', { name: /job-e2e/ })
  await tickUntil(clock, async () => /Running/.test((await row.textContent()) ?? ''), 5_000, 60_000)
  await expect(row).toContainText('Running', { timeout: 20_000 })

  // Trust the instance's host key once, in a terminal, as a user does on a first connection.
  await openFirstTerminal(page, row)

  // The tray's "Run a job…" opens the dialog over the instance's details.
  const tray = page.getByRole('navigation', { name: 'Tray menu' })
  await tray.getByText(/^job-e2e-1 — Running$/).click()
  await tray.getByRole('button', { name: 'Run a job…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Run a job on job-e2e-1' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('textbox', { name: 'Command' }).fill('sleep 3; exit 7')
  await expect(dialog.getByRole('textbox', { name: 'Working folder' })).toHaveValue('~')
  await dialog.getByRole('checkbox', { name: 'Stop the instance when it ends' }).check()
  await captureScreen(page, 'run-job')
  await dialog.getByRole('button', { name: 'Run' }).click()
  await expect(dialog).toBeHidden()

  // The job list: running, then failed with status 7 (sleep 3 runs in real time on the instance).
  const job = details(page).getByRole('listitem', { name: 'Job sleep 3; exit 7' })
  await expect(job).toContainText(/Running|Failed \(status 7\)/, { timeout: 20_000 })
  const ended = toasts(page).getByText('Job failed with status 7: «sleep 3; exit 7»')
  await expect(ended).toBeVisible({ timeout: 30_000 })
  await expect(toasts(page).getByText(/Cloud Tray stops «job-e2e-1» in \d+ min, as you asked/)).toBeVisible()
  await expect(job).toContainText('Failed (status 7)', { timeout: 20_000 })
  // The countdown's choice, across the top of the window.
  await expect(page.getByRole('button', { name: 'Keep running: «job-e2e-1»' })).toBeVisible({ timeout: 20_000 })
  await captureScreen(page, 'job-ended')

  // The countdown runs out: the instance stops.
  await tickUntil(
    clock,
    async () => (await page.getByRole('button', { name: 'Keep running: «job-e2e-1»' }).count()) === 0,
    30_000,
    10 * 60_000
  )
  await expect(toasts(page).getByText('Cloud Tray stopped «job-e2e-1»')).toBeVisible({ timeout: 20_000 })
  await tickUntil(clock, async () => /Stopped/.test((await row.textContent()) ?? ''), 5_000, 60_000)
  await expect(row).toContainText('Stopped', { timeout: 20_000 })
})
