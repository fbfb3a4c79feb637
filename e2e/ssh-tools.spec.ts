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
  const forwarded = page.getByRole('complementary', { name: 'Instance details' }).getByRole('list', { name: 'Ports forwarded over SSH' })
  await expect(forwarded).toContainText('Jupyter (8888)')
  await expect(forwarded).toContainText(address)
  await expect(forwarded).toContainText('Open')
  await expect(forwarded).toContainText(/↓ \d/)
  await captureScreen(page, 'tunnels')

  // Files: beside the terminal, starting in the instance user's home.
  await page.getByRole('button', { name: 'Files', exact: true }).click()
  await expect(page.getByRole('heading', { name: /^Terminal: tools-e2e/ })).toBeVisible()
  const state = page
    .getByRole('status')
    .filter({ hasText: /^(Connecting|Connected|Reconnecting|Session ended|Not connected)$/ })
    .first()
  await expect(state).toHaveText('Connected', { timeout: 20_000 })
  const files = page.getByRole('complementary', { name: 'Files' })
  await expect(files.getByRole('table', { name: /^Files in \// })).toBeVisible({ timeout: 20_000 })

  await files.getByLabel('Files to upload').setInputFiles({ name: "notes 'e2e'.txt", mimeType: 'text/plain', buffer: Buffer.from(CONTENT) })
  const transfer = (label: RegExp) =>
    files.getByRole('region', { name: 'Transfers' }).getByRole('listitem').filter({ hasText: label }).getByRole('status')
  // Once done it says so in its name too (#24: it said "Uploading…" under "Done").
  await expect(transfer(/^Uploaded notes/)).toHaveText(/^Done: 1 item/, { timeout: 20_000 })
  await expect(files.getByRole('checkbox', { name: "Select notes 'e2e'.txt" })).toBeVisible()

  await typeCommand(page, `cat "notes 'e2e'.txt"`)
  await expectInScrollback(page, 'uploaded through the files panel: ünïcødé ok')

  // Download it into a folder: the private file system stands in for the picked folder.
  await page.evaluate(() => {
    ;(window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = () =>
      navigator.storage.getDirectory()
  })
  await files.getByRole('checkbox', { name: "Select notes 'e2e'.txt" }).check()
  await files.getByRole('button', { name: 'Download', exact: true }).click()
  await expect(transfer(/^Downloaded notes/)).toHaveText(/^Done: 1 item/, { timeout: 20_000 })
  const saved = await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory()
    const names: string[] = []
    for await (const name of root.keys()) names.push(name)
    return { names, text: await (await (await root.getFileHandle("notes 'e2e'.txt")).getFile()).text() }
  })
  expect(saved).toEqual({ names: ["notes 'e2e'.txt"], text: CONTENT })
  await captureScreen(page, 'files', { exclude: ['.xterm'] })

  // A new folder; a file dropped into it; the folder downloaded whole; renamed; deleted after confirming.
  await files.getByRole('button', { name: 'New folder…' }).click()
  const newFolder = page.getByRole('dialog', { name: 'New folder' })
  await newFolder.getByLabel('Folder name').fill('e2e folder')
  await newFolder.getByRole('button', { name: 'Create folder' }).click()
  await files.getByRole('button', { name: 'Open folder e2e folder' }).click()
  await expect(files.getByRole('navigation', { name: 'Folder path' }).getByRole('button', { name: 'e2e folder' })).toHaveAttribute(
    'aria-current',
    'location'
  )
  await files.evaluate((panel) => {
    const data = new DataTransfer()
    data.items.add(new File(['dropped on the panel\n'], 'dropped.txt', { type: 'text/plain' }))
    panel.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }))
    panel.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }))
  })
  await expect(files.getByRole('checkbox', { name: 'Select dropped.txt' })).toBeVisible({ timeout: 20_000 })
  await files.getByRole('button', { name: 'Up', exact: true }).click()
  await files.getByRole('checkbox', { name: "Select notes 'e2e'.txt" }).uncheck()
  await files.getByRole('checkbox', { name: 'Select e2e folder' }).check()
  await files.getByRole('button', { name: 'Download', exact: true }).click()
  await expect(transfer(/^Downloaded e2e folder/)).toHaveText(/^Done: 2 items/, { timeout: 20_000 })
  const folderText = await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory()
    const folder = await root.getDirectoryHandle('e2e folder')
    return (await (await folder.getFileHandle('dropped.txt')).getFile()).text()
  })
  expect(folderText).toBe('dropped on the panel\n')

  await files.getByRole('button', { name: 'Rename…', exact: true }).click()
  const rename = page.getByRole('dialog', { name: 'Rename e2e folder' })
  await rename.getByLabel('New name').fill("notes 'e2e'.txt")
  await rename.getByRole('button', { name: 'Rename' }).click()
  await expect(rename.getByRole('alert')).toContainText('already exists')
  await rename.getByLabel('New name').fill('renamed folder')
  await rename.getByRole('button', { name: 'Rename' }).click()
  await files.getByRole('checkbox', { name: 'Select renamed folder' }).check()
  await files.getByRole('button', { name: 'Delete…', exact: true }).click()
  await page.getByRole('dialog', { name: 'Delete renamed folder?' }).getByRole('button', { name: 'Delete' }).click()
  await expect(files.getByRole('checkbox', { name: 'Select renamed folder' })).toBeHidden()
  await expect(files.getByRole('checkbox', { name: "Select notes 'e2e'.txt" })).toBeVisible()
})
