import { captureScreen, expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 150_000 })

test('the session expires in the middle of a create; after signing in again the instance is created exactly once', async ({
  page,
  shell
}) => {
  await signIn(page, shell)
  await page.keyboard.press('Control+N')
  await page.getByLabel('Name', { exact: true }).fill('survives-relogin')
  await page.getByLabel('Image', { exact: true }).fill('img-pytorch-2.5-cuda12.4')
  await page.getByLabel('Instance type').fill('gpu-rtx4090-1x')
  await page.getByLabel('Region').fill('6f1c2a4e-8d3b-4c5a-9e7f-1a2b3c4d5e6f')
  await page.getByLabel('Init script').fill('echo still here')

  shell.emulator().expireTokens()
  await page.getByRole('button', { name: 'Create instance' }).click()

  const dialog = page.getByRole('dialog', { name: 'Your session expired' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('will finish once you sign in')
  // The form stays underneath, untouched, while the create waits.
  await expect(page.getByRole('button', { name: 'Creating…' })).toBeVisible()
  await captureScreen(page, 'session-expired')
  expect(shell.emulator().instances('demo')).toHaveLength(0)

  await dialog.getByLabel('Password', { exact: true }).fill(shell.sandbox().password)
  await dialog.getByRole('button', { name: 'Sign in again' }).click()
  await expect(dialog).toBeHidden()

  const detail = page.getByRole('complementary', { name: 'Instance details' })
  await expect(detail.getByRole('heading', { name: 'survives-relogin' })).toBeVisible()
  const created = shell.emulator().instances('demo').filter((i) => i.instanceSpecInfo.name === 'survives-relogin')
  expect(created).toHaveLength(1)
  expect(shell.emulator().instances('demo')).toHaveLength(1)
})
