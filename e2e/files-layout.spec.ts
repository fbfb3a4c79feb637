/**
 * #24: the Sandbox instance's files panel and terminal at the window's sizes. At 800×600 the
 * files panel lies over the terminal instead of squeezing it to a few columns; at 1280×800 it
 * sits beside a terminal still wide enough. The instance's home reads as a real instance's,
 * `/root`, in the panel (and in the terminal where this machine can: Linux namespaces).
 */
import { showsHome } from '../src/emulator/reach/shown-home'
import { REACHABLE_SANDBOX, expectInScrollback, typeCommand } from './terminal-helpers'
import { expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 150_000 })
test.use({ shellOptions: REACHABLE_SANDBOX, viewport: { width: 800, height: 600 } })

/** A usable terminal: about 60 columns, what 480 px of the app's monospace font holds. */
const MIN_COLUMNS = 55

test('the files panel gives way to a terminal too narrow to share with it, and shows the home as /root', async ({ page, shell }) => {
  await shell.emulator().seedInstances('demo', 1, { name: 'files-box' })
  await signIn(page, shell)
  await expect(page.getByRole('row', { name: /files-box/ })).toContainText('Running')
  await page.getByRole('button', { name: /^Terminal files-box/ }).click()
  const hostKey = page.getByRole('dialog', { name: 'Unknown host key' })
  await expect(hostKey).toBeVisible({ timeout: 20_000 })
  await hostKey.getByRole('button', { name: 'Accept and remember' }).click()
  const size = page.getByLabel('Terminal size')
  const columns = async (): Promise<number> => Number(/^(\d+)×/.exec((await size.textContent()) ?? '')?.[1] ?? 0)
  await expect.poll(columns).toBeGreaterThan(0)
  const alone = await columns()

  await page.getByRole('button', { name: 'Files', exact: true }).click()
  const files = page.getByRole('complementary', { name: 'Files' })
  await expect(files.getByRole('table', { name: 'Files in /root' })).toBeVisible({ timeout: 20_000 })
  // At 800×600 the panel lies over the terminal: the terminal keeps its columns.
  await expect.poll(columns).toBe(alone)
  expect(alone).toBeGreaterThanOrEqual(MIN_COLUMNS)
  await expect(files).toBeInViewport()

  // At 1280×800 there is room for both side by side, the terminal still usable.
  await page.setViewportSize({ width: 1280, height: 800 })
  await expect.poll(columns).toBeGreaterThanOrEqual(MIN_COLUMNS)
  const panel = (await files.boundingBox())!
  const terminal = (await page.locator('.panes').boundingBox())!
  expect(terminal.x + terminal.width).toBeLessThanOrEqual(panel.x + 1)

  if (showsHome('root')) {
    await typeCommand(page, 'pwd; echo "home=$HOME"')
    await expectInScrollback(page, 'home=/root')
  }
})
