/**
 * Working on an instance from the desktop, through `npm run web` against a Running Sandbox
 * instance served by the emulator's own SSH server: forward Jupyter's port from the tray panel
 * (the host-key question is asked on the page), open the local address and see the instance's
 * own Jupyter page; then upload a file with the files panel beside the terminal, `cat` it in the
 * terminal, and download it again into a folder (the browser's private file system stands in
 * for the folder picker, which a headless browser cannot show).
 */
import { expectInScrollback, REACHABLE_SANDBOX, typeCommand } from './terminal-helpers'
import { captureScreen, expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 150_000 })
test.use({ shellOptions: REACHABLE_SANDBOX })

const CONTENT = 'uploaded through the files panel: ünïcødé ok\n'

test('forward Jupyter from the tray, see the instance’s page; upload a file, cat it, download it', async ({ page, context, shell }) => {
  const [instanceId] = await shell.emulator().seedInstances('demo', 1, { name: 'tools-e2e' })
  await signIn(page, shell)
  const row = page.getByRole('row', { name: /tools-e2e/ })
  await expect(row).toContainText('Running', { timeout: 20_000 })

  // The tray panel: the instance's submenu → Forward a port → Jupyter (8888).
  const tray = page.getByRole('navigation', { name: 'Tray menu' })
  await tray.getByText(/^tools-e2e-1 — Running$/).click()
  await tray.getByText('Forward a port', { exact: true }).click()
  await tray.getByRole('button', { name: 'Jupyter (8888)' }).click()

  // The first connection to this instance: the page is asked about the host key.
  const hostKey = page.getByRole('dialog', { name: 'Unknown host key' })
  await expect(hostKey).toBeVisible({ timeout: 20_000 })
  await hostKey.getByRole('button', { name: 'Accept and remember' }).click()

  // The tray lists the tunnel (on 8888 when that is free here, else another port).
  const entry = tray.getByText(/^127\.0\.0\.1:\d+ → Jupyter \(8888\)$/)
  await expect(entry).toBeVisible({ timeout: 20_000 })
  const address = /^(127\.0\.0\.1:\d+)/.exec((await entry.textContent()) ?? '')![1]!
  await entry.click()
  await tray.getByRole('button', { name: `Open http://${address}` }).click()
  await expect(page.getByRole('list', { name: 'Recorded effects' })).toContainText(`http://${address}/`)

  // The address reaches the instance's own Jupyter page.
  const jupyter = await context.newPage()
  await jupyter.goto(`http://${address}/`)
  await expect(jupyter.getByRole('heading', { name: `Jupyter on ${instanceId}` })).toBeVisible()
  await jupyter.close()

  // The instance's panel lists it, with its counters, open and busy.
  await row.getByRole('button', { name: /^Details of tools-e2e/ }).click()
  const forwarded = page.getByRole('complementary', { name: 'Instance details' }).getByRole('list', { name: 'Forwarded ports' })
  await expect(forwarded).toContainText('Jupyter (8888)')
  await expect(forwarded).toContainText(address)
  await expect(forwarded).toContainText('Open')
  await expect(forwarded).toContainText(/↓ \d/)
  await captureScreen(page, 'tunnels')

  // Files: beside the terminal, starting in the instance user's home.
  await page.getByRole('button', { name: 'Files', exact: true }).click()
  await expect(page.getByRole('heading', { name: /^Terminal: tools-e2e/ })).toBeVisible()
  const state = page.getByRole('status').filter({ hasText: /^(Connecting|Connected|Reconnecting|Session ended|Not connected)$/ }).first()
  await expect(state).toHaveText('Connected', { timeout: 20_000 })
  const files = page.getByRole('complementary', { name: 'Files' })
  await expect(files.getByRole('table', { name: /^Files in \// })).toBeVisible({ timeout: 20_000 })

  await files.getByLabel('Files to upload').setInputFiles({ name: "notes 'e2e'.txt", mimeType: 'text/plain', buffer: Buffer.from(CONTENT) })
  await expect(files.getByRole('list').getByRole('status')).toHaveText(/^Done: 1 item/, { timeout: 20_000 })
  await expect(files.getByRole('checkbox', { name: "Select notes 'e2e'.txt" })).toBeVisible()

  await typeCommand(page, `cat "notes 'e2e'.txt"`)
  await expectInScrollback(page, 'uploaded through the files panel: ünïcødé ok')

  // Download it into a folder: the private file system stands in for the picked folder.
  await page.evaluate(() => {
    ;(window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = () => navigator.storage.getDirectory()
  })
  await files.getByRole('checkbox', { name: "Select notes 'e2e'.txt" }).check()
  await files.getByRole('button', { name: 'Download' }).click()
  await expect(files.getByRole('list').getByRole('status').last()).toHaveText(/^Done: 1 item/, { timeout: 20_000 })
  const saved = await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory()
    const names: string[] = []
    for await (const name of root.keys()) names.push(name)
    if (!names.includes("notes 'e2e'.txt")) return { names, text: '' }
    return { names, text: await (await (await root.getFileHandle("notes 'e2e'.txt")).getFile()).text() }
  })
  expect(saved).toEqual({ names: ["notes 'e2e'.txt"], text: CONTENT })
  await captureScreen(page, 'files', { exclude: ['.xterm'] })
})
