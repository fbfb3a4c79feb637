/**
 * The packaged app opens an instance's notebook in its own window whose session carries the
 * AccessToken cookie for exactly the notebook's origin (HttpOnly, Secure), while the app window's
 * session has no such cookie. Signing out closes the notebook window and removes the cookie from
 * its partition. Checked in the main process through each window's session.
 */
import { expect, test } from '@playwright/test'
import { launchApp, openNotebookOfNewInstance, requireElectron } from './electron-app'

interface CookieView {
  name: string
  domain?: string
  httpOnly?: boolean
  secure?: boolean
  valueLength: number
}

test('a notebook window carries the cookie, and only there', async () => {
  const executable = requireElectron()
  const launched = await launchApp(executable)
  const { app, window: page } = launched
  try {
    const notebook = await openNotebookOfNewInstance(launched, 'electron-notebook')
    const notebookUrl = new URL(notebook.url())
    expect(notebookUrl.protocol).toBe('https:')

    const jar = await app.evaluate(async ({ BrowserWindow, session }, origin) => {
      const view = (cookies: Electron.Cookie[]) =>
        cookies.map((c) => ({ name: c.name, domain: c.domain, httpOnly: c.httpOnly, secure: c.secure, valueLength: c.value.length }))
      const notebookWindow = BrowserWindow.getAllWindows().find((w) => w.webContents.getURL().startsWith(origin))
      return {
        notebook: notebookWindow ? view(await notebookWindow.webContents.session.cookies.get({ name: 'AccessToken' })) : null,
        app: view(await session.defaultSession.cookies.get({ name: 'AccessToken' }))
      }
    }, notebookUrl.origin)

    expect(jar.notebook).not.toBeNull()
    const cookies = jar.notebook as CookieView[]
    expect(cookies).toHaveLength(1)
    expect(cookies[0]).toMatchObject({ name: 'AccessToken', httpOnly: true, secure: true })
    expect(cookies[0]!.domain?.replace(/^\./, '')).toBe(notebookUrl.hostname)
    expect(cookies[0]!.valueLength).toBeGreaterThan(20)
    expect(jar.app).toEqual([])

    // Signing out ends the notebook's sign-in: its window closes and its partition has no cookie.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect(page.getByRole('heading', { name: 'Sign in to Cloud Tray' })).toBeVisible()
    await expect
      .poll(() =>
        app.evaluate(
          ({ BrowserWindow }, origin) => BrowserWindow.getAllWindows().filter((w) => w.webContents.getURL().startsWith(origin)).length,
          notebookUrl.origin
        )
      )
      .toBe(0)
    const left = await app.evaluate(
      async ({ session }) => (await session.fromPartition('persist:notebook-sandbox').cookies.get({ name: 'AccessToken' })).length
    )
    expect(left).toBe(0)
  } finally {
    await launched.close()
  }
})
