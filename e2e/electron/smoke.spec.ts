/**
 * The built desktop app, launched by Playwright's Electron support on a fresh data folder: it
 * opens on the Sandbox profile and shows the login window, with a renderer that sees
 * window.cloud and nothing of Node. Needs `npm run build` first (out/) and an Electron binary;
 * where either is missing it skips and prints why (electron-app.ts).
 */
import { expect, test } from '@playwright/test'
import { launchApp, requireElectron } from './electron-app'

test('the built app starts on the Sandbox and shows the login window', async () => {
  const executablePath = requireElectron()
  const launched = await launchApp(executablePath)
  try {
    const window = launched.window
    await expect(window.getByRole('heading', { name: 'Sign in to Cloud Tray' })).toBeVisible()
    await expect(window.getByLabel('Profile')).toHaveValue('sandbox')
    await expect(window.getByRole('button', { name: 'Sign in' })).toBeVisible()
    // Context isolation, sandbox, no nodeIntegration: the page has the contract and no Node.
    const globals = await window.evaluate(() => {
      const g = globalThis as { cloud?: unknown; require?: unknown; process?: unknown }
      return [typeof g.cloud, typeof g.require, typeof g.process]
    })
    expect(globals).toEqual(['object', 'undefined', 'undefined'])
  } finally {
    await launched.close()
  }
})
