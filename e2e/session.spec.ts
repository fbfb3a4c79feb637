import { chooseLaunch } from './launch-helpers'
import { captureScreen, expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 150_000 })

test('the session expires in the middle of a create; after signing in again the instance is created exactly once', async ({
  page,
  shell
}) => {
  await signIn(page, shell)
  await page.keyboard.press('Control+N')
  await page.getByLabel('Name', { exact: true }).fill('survives-relogin')
  await chooseLaunch(page, { type: /^1 × RTX-4090 /, image: 'img-pytorch-2.5-cuda12.4', region: 'us-west-1' })
  await page.getByLabel('Init script').fill('echo still here')

  shell.emulator().expireTokens()
  await page.getByRole('button', { name: 'Create instance' }).click()
  await page.getByRole('dialog', { name: 'Review and launch' }).getByRole('button', { name: 'Launch' }).click()

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
  const created = shell
    .emulator()
    .instances('demo')
    .filter((i) => i.instanceSpecInfo.name === 'survives-relogin')
  expect(created).toHaveLength(1)
  expect(shell.emulator().instances('demo')).toHaveLength(1)
})
