import { chooseLaunch, launchReviewed } from './launch-helpers'
import { captureScreen, expect, signIn, test } from './web-fixture'

// The machine runs several suites at once; give each flow room beyond the default 60 s.
test.describe.configure({ timeout: 150_000 })

const IMAGE = 'img-pytorch-2.5-cuda12.4'
const TYPE = 'gpu-a100-80g-1x'
const TYPE_CHOICE = /^1 × A100-PCIE-80GB /
const REGION = '6f1c2a4e-8d3b-4c5a-9e7f-1a2b3c4d5e6f'

test('create an instance with storage, node ports and an init script, and watch it reach Running', async ({ page, shell }) => {
  await signIn(page, shell)
  await page.keyboard.press('Control+N')
  await expect(page.getByRole('heading', { name: 'New instance' })).toBeVisible()

  await page.getByLabel('Name', { exact: true }).fill('train-e2e')
  await chooseLaunch(page, { type: TYPE_CHOICE, image: IMAGE, region: 'us-west-1' })

  await page.getByRole('button', { name: 'Add storage' }).click()
  const storage = page.getByRole('group', { name: 'Storage 1' })
  await storage.getByLabel('Mount path').fill('/data')
  await storage.getByLabel('Storage name').fill('datasets')
  await storage.getByLabel('Storage id').fill('vol-123')

  const ports = page.getByLabel('Ports to publish')
  await ports.fill('8888')
  await ports.press('Enter')
  await ports.fill('6006')
  await page.getByRole('button', { name: 'Add port' }).click()
  // Duplicates and out-of-range ports are refused in the form.
  await ports.fill('8888')
  await ports.press('Enter')
  await expect(page.getByText('Port 8888 is already in the list.')).toBeVisible()
  await ports.fill('')
  await expect(page.getByRole('list', { name: 'Ports chosen to publish' }).getByRole('listitem')).toHaveCount(2)

  await page.getByLabel('Init script').fill('#!/bin/sh\necho ready > /tmp/ready\n')
  // Hourly billing locks the duration to 1.
  await expect(page.getByLabel(/^Duration/)).toHaveAttribute('readonly', '')
  await captureScreen(page, 'create-instance')

  await launchReviewed(page)

  // Success lands on the new instance, whose status is followed live until Running.
  const detail = page.getByRole('complementary', { name: 'Instance details' })
  await expect(detail.getByRole('heading', { name: 'train-e2e' })).toBeVisible()
  const row = page.getByRole('row', { name: /train-e2e/ })
  await expect(row).toContainText('Running', { timeout: 20_000 })
  // #15: one toast, for what the user waited for (ready); the steps on the way show in place.
  const recorded = page.getByRole('list', { name: 'Recorded effects' })
  await expect(recorded.getByRole('listitem').filter({ hasText: /OS notification.*«train-e2e» is ready/ })).toBeVisible()
  const toastsRegion = page.getByRole('region', { name: 'Notifications' })
  await expect(toastsRegion.getByText('«train-e2e» is ready')).toHaveCount(1)
  await expect(toastsRegion.getByText(/→/)).toHaveCount(0)
  await expect(detail.getByRole('cell', { name: '/data' })).toBeVisible()
  await expect(detail.getByRole('cell', { name: '8888', exact: true })).toBeVisible()
  await expect(detail.getByRole('cell', { name: '6006', exact: true })).toBeVisible()
  await captureScreen(page, 'instance-detail')

  const created = shell.emulator().instances('demo')
  expect(created).toHaveLength(1)
  expect(created[0]!.instanceSpecInfo.remoteStorages).toEqual([
    expect.objectContaining({ mountPath: '/data', remoteStorageName: 'datasets', remoteStorageId: 'vol-123' })
  ])
  expect(created[0]!.instanceSpecInfo.nodePorts.map((p) => p.port).sort((a, b) => a - b)).toEqual([22, 6006, 8888])
})

test('a field the server rejects shows its message on that field', async ({ page, shell }) => {
  await signIn(page, shell)
  await page.keyboard.press('Control+N')
  await page.getByLabel('Name', { exact: true }).fill('bad-image')
  await chooseLaunch(page, { type: TYPE_CHOICE, image: 'img-that-does-not-exist' })
  await launchReviewed(page)

  const image = page.getByLabel('Image id', { exact: true })
  await expect(image).toHaveAttribute('aria-invalid', 'true')
  await expect(image).toHaveAccessibleDescription(/img-that-does-not-exist/)
  await expect(image).toBeFocused()
  await captureScreen(page, 'create-instance-server-error')
  expect(shell.emulator().instances('demo')).toHaveLength(0)

  // Editing the field clears the server's message; the draft survives leaving and coming back.
  await image.fill(IMAGE)
  await expect(image).not.toHaveAttribute('aria-invalid', 'true')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Volumes' }).click()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'New instance' }).click()
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('bad-image')
  await expect(page.getByLabel('Image', { exact: true })).toHaveValue(IMAGE)
  await expect(page.getByRole('radio', { name: TYPE_CHOICE })).toBeChecked()
})

test('stop one instance and delete another', async ({ page, shell }) => {
  await shell.emulator().seedInstances('demo', 2, { name: 'job' })
  await signIn(page, shell)
  const first = page.getByRole('row', { name: /job-1/ })
  const second = page.getByRole('row', { name: /job-2/ })
  await expect(first).toContainText('Running')
  await expect(second).toContainText('Running')
  await captureScreen(page, 'instances')

  await page.getByRole('button', { name: 'Stop job-1' }).click()
  const stopDialog = page.getByRole('dialog', { name: 'Stop job-1?' })
  await expect(stopDialog).toContainText('This stops job-1:')
  await expect(stopDialog).toContainText('no call to start an instance again')
  await captureScreen(page, 'stop-dialog')
  await stopDialog.getByRole('button', { name: 'Stop instance' }).click()
  // At once, before the watcher has seen anything: the user's own action shows on the row.
  await expect(first).toContainText('Stopping…')
  await expect(first).toContainText('Stopped', { timeout: 20_000 })
  await expect(page.getByRole('button', { name: 'Stop job-1' })).toBeDisabled()

  await page.getByRole('button', { name: 'Delete job-2' }).click()
  const deleteDialog = page.getByRole('dialog', { name: 'Delete job-2?' })
  await expect(deleteDialog).toContainText('for good')
  const confirm = deleteDialog.getByRole('button', { name: 'Delete for good' })
  await expect(confirm).toBeDisabled()
  await deleteDialog.getByLabel('Type job-2 to confirm').fill('job-2')
  await captureScreen(page, 'delete-dialog')
  await confirm.click()
  await expect(deleteDialog).toBeHidden()
  // The row says "Deleting…" at once, and goes when the watcher no longer lists it.
  await expect(page.getByRole('row', { name: /job-2/ })).toHaveCount(0, { timeout: 20_000 })
  const statuses = Object.fromEntries(
    shell
      .emulator()
      .instances('demo')
      .map((i) => [i.instanceSpecInfo.name, i.instanceRuntimeInfo.status])
  )
  expect(statuses['job-1']).toBe('Stopped')
  expect(statuses['job-2']).toBeUndefined()
})

test('paste request JSON fills the form; the Ports dialog lists each published port', async ({ page, shell }) => {
  await signIn(page, shell)
  await page.keyboard.press('Control+N')
  await page.getByRole('button', { name: 'Paste request JSON' }).click()
  const paste = page.getByRole('dialog', { name: 'Paste request JSON' })
  await paste.getByLabel('Request JSON').fill('{"name": ')
  await paste.getByRole('button', { name: 'Fill the form' }).click()
  await expect(paste.getByLabel('Request JSON')).toHaveAccessibleDescription(/not JSON/)
  const body = {
    name: 'pasted-1',
    imageId: IMAGE,
    instanceTypeId: TYPE,
    region: REGION,
    billing: { chargeMode: 'perDay', duration: 2 },
    remoteStorages: [],
    instanceConfiguration: { extraDataDiskSizeDB: 50, enableCommonData: false, enableDocker: true, dockerStorageSize: 20, initScript: '' },
    isSpotInstance: false,
    nodePorts: [8080]
  }
  await paste.getByLabel('Request JSON').fill(JSON.stringify(body, null, 2))
  await captureScreen(page, 'paste-request-dialog')
  await paste.getByRole('button', { name: 'Fill the form' }).click()
  await expect(paste).toBeHidden()
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('pasted-1')
  await expect(page.getByLabel('Billing mode')).toHaveValue('perDay')
  await expect(page.getByLabel(/^Duration/)).toHaveValue('2')
  await expect(page.getByLabel(/^Duration/)).not.toHaveAttribute('readonly', '')
  await expect(page.getByLabel('Docker storage (GB)')).toHaveValue('20')
  // Switching to an hourly mode locks the duration back to 1.
  await page.getByLabel('Billing mode').selectOption('perHour')
  await expect(page.getByLabel(/^Duration/)).toHaveValue('1')
  await page.getByLabel('Billing mode').selectOption('perDay')
  await page.getByLabel(/^Duration/).fill('2')
  // The pasted ids are the catalog's: the pickers show them by name.
  await expect(page.getByRole('radio', { name: TYPE_CHOICE })).toBeChecked()
  await expect(page.getByLabel('Region', { exact: true })).toHaveValue(REGION)
  await launchReviewed(page)

  const row = page.getByRole('row', { name: /pasted-1/ })
  await expect(row).toContainText('Running', { timeout: 20_000 })
  // A two-day plan, shown as its price per hour (perDay 38.66 / 24).
  await expect(row).toContainText('$1.61/h')
  await page.getByRole('button', { name: 'Ports pasted-1' }).click()
  const ports = page.getByRole('dialog', { name: 'Ports of pasted-1' })
  await expect(ports.getByRole('table', { name: 'Published ports' }).getByRole('cell', { name: '8080', exact: true })).toBeVisible()
  await captureScreen(page, 'ports-dialog')
  await ports.getByRole('button', { name: 'Open port 8080 in browser' }).click()
  // In the web shell the link is recorded and listed, not opened.
  await expect(page.getByRole('list', { name: 'Recorded effects' })).toContainText(/Browser http:\/\/[\d.]+:\d+/)
  await ports.getByRole('button', { name: 'Close' }).click()

  // The notebook window is Electron's; here the page records where it would have gone.
  await page.getByRole('button', { name: 'Open notebook pasted-1' }).click()
  await expect(page.getByRole('list', { name: 'Recorded effects' })).toContainText(/Notebook window https:\/\//)
})
