/** The packaged app creates an instance on the Sandbox and follows it to Running. */
import { expect, test } from '@playwright/test'
import { createInstance, launchApp, requireElectron, signInToSandbox } from './electron-app'

test('creates an instance and watches it reach Running', async () => {
  const executable = requireElectron()
  const launched = await launchApp(executable)
  try {
    await signInToSandbox(launched.window)
    await createInstance(launched.window, 'electron-create')
    const detail = launched.window.getByRole('complementary', { name: 'Instance details' })
    await expect(detail.getByRole('heading', { name: 'electron-create' })).toBeVisible()
    await expect(launched.window.getByRole('row', { name: /electron-create/ })).toContainText('Running', { timeout: 30_000 })
  } finally {
    await launched.close()
  }
})
