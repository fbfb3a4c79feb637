import { captureScreen, expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 120_000 })

const REGION = '6f1c2a4e-8d3b-4c5a-9e7f-1a2b3c4d5e6f'

test('create a volume, then hit "already exists" on the name field', async ({ page, shell }) => {
  await signIn(page, shell)
  const main = page.getByRole('navigation', { name: 'Main' })
  await main.getByRole('button', { name: 'Volumes' }).click()
  await expect(page.getByRole('heading', { name: 'No volumes yet' })).toBeVisible()
  await captureScreen(page, 'volumes-empty')

  await page.getByRole('button', { name: 'New volume', exact: true }).first().click()
  await expect(page.getByRole('heading', { name: 'New volume' })).toBeVisible()
  await page.getByLabel('Volume name').fill('datasets')
  await page.getByLabel('Size (GB)').fill('200')
  await page.getByLabel('Region', { exact: true }).selectOption(REGION)
  await expect(page.getByLabel('Volume type')).toHaveValue('filesystem')
  await captureScreen(page, 'create-volume')
  await page.getByRole('button', { name: 'Create volume' }).click()

  await expect(page.getByRole('heading', { name: 'Volumes', exact: true })).toBeVisible()
  const row = page.getByRole('row', { name: /datasets/ })
  await expect(row).toContainText('200 GB')
  await expect(row).toContainText('filesystem')
  await captureScreen(page, 'volumes')

  await page.getByRole('button', { name: 'New volume', exact: true }).click()
  await page.getByLabel('Volume name').fill('datasets')
  await page.getByLabel('Size (GB)').fill('50')
  await page.getByLabel('Region', { exact: true }).selectOption(REGION)
  await page.getByRole('button', { name: 'Create volume' }).click()
  const name = page.getByLabel('Volume name')
  await expect(name).toHaveAttribute('aria-invalid', 'true')
  await expect(name).toHaveAccessibleDescription(/already exists/i)
  await captureScreen(page, 'create-volume-exists')
  expect(shell.emulator().volumes('demo')).toHaveLength(1)
})
