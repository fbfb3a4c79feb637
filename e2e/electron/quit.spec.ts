/**
 * Quit with a notebook whose page refuses to unload (as JupyterLab does with unsaved work): the
 * app asks once; "Stay" keeps the app, the notebook and the session, and the app window still
 * hides on close; "Quit Anyway" quits. The native message box is answered by replacing
 * dialog.showMessageBox in the main process (Playwright cannot click native dialogs).
 */
import { expect, test } from '@playwright/test'
import { launchApp, openNotebookOfNewInstance, requireElectron } from './electron-app'

test('Quit asks about a notebook with unsaved work; Stay keeps everything', async () => {
  const executable = requireElectron()
  const launched = await launchApp(executable)
  const { app, window: page } = launched
  try {
    const notebook = await openNotebookOfNewInstance(launched, 'electron-unsaved')
    // Unsaved work: a beforeunload that refuses; a click gives the page the user activation Chromium requires.
    await notebook.evaluate(() =>
      window.addEventListener('beforeunload', (event) => {
        event.preventDefault()
        event.returnValue = ''
      })
    )
    await notebook.locator('body').click()

    // Every message box is recorded and answered "Stay" (index 1) from here on.
    await app.evaluate(({ dialog }) => {
      const g = globalThis as unknown as { __asked: string[]; __answer: number }
      g.__asked = []
      g.__answer = 1
      dialog.showMessageBox = (async (...args: unknown[]) => {
        const options = args.at(-1) as { message: string }
        g.__asked.push(options.message)
        return { response: g.__answer, checkboxChecked: false }
      }) as typeof dialog.showMessageBox
    })
    await app.evaluate(({ app: electronApp }) => electronApp.quit())
    await expect.poll(() => app.evaluate(() => (globalThis as unknown as { __asked: string[] }).__asked)).toEqual(['Quit Cloud Tray?'])

    // Stay: the app, the notebook and the session are still there.
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(2)
    await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()
    // The app window hides on close again (the cancelled quit left nothing set).
    const state = await app.evaluate(async ({ BrowserWindow }) => {
      const main = BrowserWindow.getAllWindows().find((w) => w.webContents.getURL().startsWith('file:'))!
      main.close()
      await new Promise((resolve) => setTimeout(resolve, 500))
      return { destroyed: main.isDestroyed(), visible: main.isVisible() }
    })
    expect(state).toEqual({ destroyed: false, visible: false })

    // Quit Anyway: the app quits.
    await app.evaluate(({ app: electronApp }) => {
      ;(globalThis as unknown as { __answer: number }).__answer = 0
      electronApp.quit()
    })
    await app.waitForEvent('close', { timeout: 20_000 })
  } finally {
    await launched.close()
  }
})
