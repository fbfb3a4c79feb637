/**
 * The packaged app opens an SSH terminal to a Sandbox instance (a real SSH server on loopback)
 * and a command runs there: the output is computed remotely (6*7), so a local echo of the typed
 * text cannot pass for it. Output is read from the contract's own ssh.data events. The toolbar's
 * Paste puts the system clipboard's text into the shell (main reads the clipboard).
 */
import { expect, test } from '@playwright/test'
import { acceptFirstHostKey, createInstance, launchApp, requireElectron, signInToSandbox } from './electron-app'

test('echo through the terminal', async () => {
  const executable = requireElectron()
  const launched = await launchApp(executable)
  const { window: page } = launched
  try {
    await signInToSandbox(page)
    await createInstance(page, 'electron-ssh')
    await expect(page.getByRole('row', { name: /electron-ssh/ })).toContainText('Running', { timeout: 30_000 })

    await page.evaluate(() => {
      const w = globalThis as unknown as { cloud: { on: (e: string, l: (p: { data: Uint8Array }) => void) => void }; __terminalOut: string }
      w.__terminalOut = ''
      const decoder = new TextDecoder()
      w.cloud.on('ssh.data', (payload) => {
        w.__terminalOut += decoder.decode(payload.data, { stream: true })
      })
    })
    const detail = page.getByRole('complementary', { name: 'Instance details' })
    await detail.getByRole('button', { name: 'Terminal' }).click()

    await acceptFirstHostKey(page)

    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { __terminalOut: string }).__terminalOut), { timeout: 20_000 })
      .not.toBe('')
    await page.locator('.xterm-helper-textarea').first().focus()
    await page.keyboard.type('echo cloud-tray-$((6*7))')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { __terminalOut: string }).__terminalOut), { timeout: 15_000 })
      .toContain('cloud-tray-42')

    await launched.app.evaluate(async ({ clipboard }) => {
      await clipboard.writeText('echo pasted-$((6*7))')
    })
    await page.getByRole('button', { name: 'Paste', exact: true }).click()
    await page.locator('.xterm-helper-textarea').first().focus()
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { __terminalOut: string }).__terminalOut), { timeout: 15_000 })
      .toContain('pasted-42')
  } finally {
    await launched.close()
  }
})
