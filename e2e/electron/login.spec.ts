/** The packaged app signs in to the Sandbox (its built-in emulator) and shows the list. */
import { expect, test } from '@playwright/test'
import { launchApp, requireElectron, signInToSandbox } from './electron-app'

test('signs in to the Sandbox and shows the instance list', async () => {
  const executable = requireElectron()
  const launched = await launchApp(executable)
  try {
    await signInToSandbox(launched.window)
    await expect(launched.window.getByRole('heading', { name: 'No instances yet' })).toBeVisible()
    // The renderer never holds the token: not in storage, not in a cookie of the app window.
    const leaked = await launched.window.evaluate(() => {
      const g = globalThis as unknown as { document: { cookie: string }; localStorage: object; sessionStorage: object }
      return [g.document.cookie, JSON.stringify(g.localStorage), JSON.stringify(g.sessionStorage)].join(' ')
    })
    expect(leaked).not.toMatch(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./)
  } finally {
    await launched.close()
  }
})
