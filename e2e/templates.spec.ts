/**
 * Launch templates through the real app (#26: `npm run web`, the Sandbox): saved from the review
 * step, the app restarted on the same data folder, launched from the tray panel in two clicks;
 * "Launch again" on a terminated instance still listed fills every field it had; a template's
 * JSON exported, edited by hand with a bad field and imported: the field is named, nothing saved.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { startWebShell } from '../src/web/server'
import { addPort, addStorage, chooseLaunch } from './launch-helpers'
import { captureScreen, expect, FAST_EMULATOR, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 150_000 })

const IMAGE = 'img-pytorch-2.5-cuda12.4'
const A100 = /^1 × A100-PCIE-80GB /

const review = (page: Page) => page.getByRole('dialog', { name: 'Review and launch' })

async function openForm(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'New instance' }).click()
  await expect(page.getByRole('heading', { name: 'New instance' })).toBeVisible()
}

test('a template saved at the review step survives a restart and launches from the tray panel', async ({ page }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-templates-'))
  let shell = await startWebShell({ dataDir, emulator: FAST_EMULATOR })
  try {
    await signIn(page, shell)
    await openForm(page)
    await page.getByLabel('Name', { exact: true }).fill('a100-box')
    await chooseLaunch(page, { type: A100, image: IMAGE })
    await addPort(page, '8888')
    await page.getByRole('button', { name: 'Create instance' }).click()
    await expect(review(page)).toBeVisible()
    await review(page).getByRole('button', { name: 'Save as template…' }).click()
    const save = page.getByRole('dialog', { name: 'Save as template' })
    await expect(save.getByLabel('Template name')).toHaveValue('a100-box')
    await save.getByLabel('Template name').fill('A100 box')
    await captureScreen(page, 'template-save')
    await save.getByRole('button', { name: 'Save template' }).click()
    await expect(save).toBeHidden()
    await review(page).getByRole('button', { name: 'Back to the form' }).click()
    expect(shell.emulator().instances('demo')).toEqual([])

    // The app restarts on the same data folder.
    await shell.close()
    shell = await startWebShell({ dataDir, emulator: FAST_EMULATOR })
    await signIn(page, shell)

    // Two clicks in the tray: the submenu, then the template.
    const tray = page.getByRole('navigation', { name: 'Tray menu' })
    await tray.getByText('Launch from template').click()
    await tray.getByRole('button', { name: 'A100 box…' }).click()
    await expect(review(page)).toBeVisible()
    await expect(review(page)).toContainText('From your template «A100 box»: 1 × A100-PCIE-80GB in us-west-1 at $1.79/h today.')
    await expect(review(page).getByRole('note', { name: 'Cost' })).toContainText('$1.79 per hour')
    await expect(review(page).getByRole('note', { name: 'Stock' })).toContainText('In stock in us-west-1 now')
    await review(page).getByRole('button', { name: 'Launch' }).click()
    await expect(page.getByRole('complementary', { name: 'Instance details' }).getByRole('heading', { name: 'a100-box' })).toBeVisible()
    const [created] = shell.emulator().instances('demo')
    expect(created!.instanceSpecInfo.nodePorts.map((p) => p.port).sort()).toEqual([22, 8888])
  } finally {
    await shell.close()
    await rm(dataDir, { recursive: true, force: true })
  }
})

test('Launch again on a terminated instance still listed fills every field it had', async ({ page, shell }) => {
  await signIn(page, shell)
  await openForm(page)
  await page.getByLabel('Name', { exact: true }).fill('full-spec')
  await chooseLaunch(page, { type: A100, image: IMAGE, region: 'ap-southeast-1' })
  await page.getByLabel('Billing mode').selectOption('perDay')
  await page.getByLabel(/^Duration/).fill('2')
  await addStorage(page, { mountPath: '/data', name: 'datasets', id: 'vol-123' })
  await page.getByLabel('Extra data disk (GB)').fill('50')
  await page.getByRole('checkbox', { name: 'Common data' }).check()
  await page.getByRole('checkbox', { name: 'Docker' }).check()
  await page.getByLabel('Docker storage (GB)').fill('20')
  await page.getByLabel('Init script').fill('#!/bin/sh\necho ready\n')
  await addPort(page, '8888')
  await addPort(page, '6006')
  await page.getByRole('button', { name: 'Create instance' }).click()
  await review(page).getByRole('button', { name: 'Launch' }).click()
  const detail = page.getByRole('complementary', { name: 'Instance details' })
  await expect(detail.getByRole('heading', { name: 'full-spec' })).toBeVisible()

  // Terminated, still listed (the real service lists a released instance for a while).
  const [instance] = shell.emulator().instances('demo')
  shell.emulator().setStatus(instance!.instanceMetadata.instanceId, 'Released')
  await page.keyboard.press('Control+R')
  await expect(page.getByRole('row', { name: /full-spec/ })).toContainText('Released')
  await detail.getByRole('button', { name: 'Launch again…' }).click()

  await expect(page.getByRole('heading', { name: 'New instance' })).toBeVisible()
  await expect(page.getByRole('note', { name: 'Where this launch comes from' })).toContainText(
    'Filled from «full-spec», as Cloud Tray launched it.'
  )
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('full-spec')
  await expect(page.getByLabel('Region', { exact: true })).toHaveValue('0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b')
  await expect(page.getByRole('radio', { name: A100 })).toBeChecked()
  await expect(page.getByLabel('Image', { exact: true })).toHaveValue(IMAGE)
  await expect(page.getByLabel('Billing mode')).toHaveValue('perDay')
  await expect(page.getByLabel(/^Duration/)).toHaveValue('2')
  const again = page.getByRole('group', { name: 'Storage 1' })
  await expect(again.getByLabel('Mount path')).toHaveValue('/data')
  await expect(again.getByLabel('Storage name')).toHaveValue('datasets')
  await expect(again.getByLabel('Storage id')).toHaveValue('vol-123')
  await expect(again.getByLabel('Storage type')).toHaveValue('filesystem')
  await expect(page.getByLabel('Extra data disk (GB)')).toHaveValue('50')
  await expect(page.getByRole('checkbox', { name: 'Common data' })).toBeChecked()
  await expect(page.getByRole('checkbox', { name: 'Docker' })).toBeChecked()
  await expect(page.getByLabel('Docker storage (GB)')).toHaveValue('20')
  await expect(page.getByLabel('Init script')).toHaveValue('#!/bin/sh\necho ready\n')
  await expect(page.getByRole('list', { name: 'Ports chosen to publish' }).getByRole('listitem')).toHaveText([/8888/, /6006/])
  // Spot is the type's (#24): the on-demand A100 chosen above, checked again, is the whole of it.
  await expect(page.getByRole('checkbox', { name: 'Spot instance' })).toHaveCount(0)
  await captureScreen(page, 'launch-again')
})

test('a template exported, edited by hand with a bad field and imported: the field is named, nothing is saved', async ({ page, shell }) => {
  await signIn(page, shell)
  await openForm(page)
  await page.getByLabel('Name', { exact: true }).fill('shared-box')
  await chooseLaunch(page, { type: A100, image: IMAGE })
  await page.getByRole('button', { name: 'Create instance' }).click()
  await review(page).getByRole('button', { name: 'Save as template…' }).click()
  await page.getByRole('dialog', { name: 'Save as template' }).getByRole('button', { name: 'Save template' }).click()
  await review(page).getByRole('button', { name: 'Back to the form' }).click()

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Templates' }).click()
  const list = page.getByRole('list', { name: 'Templates' })
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list).toContainText('Today: in stock in us-west-1, $1.79/h.')
  await captureScreen(page, 'templates')
  const [download] = await Promise.all([page.waitForEvent('download'), list.getByRole('button', { name: 'Export shared-box' }).click()])
  expect(download.suggestedFilename()).toBe('shared-box.cloud-tray-template.json')
  const file = JSON.parse(await readFile((await download.path())!, 'utf8'))
  expect(file).toMatchObject({ cloudTrayTemplate: 1, name: 'shared-box', request: { name: 'shared-box', imageId: IMAGE } })

  // Edited by hand: a billing mode that does not exist.
  file.name = 'edited'
  file.request.billing.chargeMode = 'perFortnight'
  const edited = join(await mkdtemp(join(tmpdir(), 'cloud-tray-edited-')), 'edited.json')
  await writeFile(edited, JSON.stringify(file, null, 2))
  await page.getByRole('button', { name: 'Import template…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Import a template' })
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialog.getByRole('button', { name: 'Choose a file…' }).click()])
  await chooser.setFiles(edited)
  await expect(dialog.getByRole('alert')).toHaveText(
    /^The field “request\.billing\.chargeMode” is wrong: .*perHour.*Nothing was saved; fix the file and import it again\.$/
  )
  await captureScreen(page, 'template-import-error')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list).not.toContainText('edited')

  // Fixed, it comes in.
  file.request.billing.chargeMode = 'perHour'
  await page.getByRole('button', { name: 'Import template…' }).click()
  await dialog.getByLabel('Or paste JSON').fill(JSON.stringify(file))
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(list.getByRole('listitem')).toHaveCount(2)
  await expect(list).toContainText('edited')
})
