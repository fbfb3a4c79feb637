/**
 * After a real session (a wrong password, sign-in, create an instance and watch it start, sign
 * out), nothing the app wrote may contain the access token, the password or a passphrase: not
 * its log files, not its settings, not the lines the shell printed. The app's data folder is
 * kept for the scan, and the log must exist (an empty scan proves nothing).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scanForSecrets } from '../src/main/log/scan'
import { chooseLaunch, launchReviewed } from './launch-helpers'
import { expect, FAST_EMULATOR, test as base } from './web-fixture'

const USER = 'scan-user'
const PASSWORD = 'Pw-7c1f9e-do-not-log'
const WRONG_PASSWORD = 'Wrong-3b8d2a-do-not-log'
const IMAGE = 'img-pytorch-2.5-cuda12.4'
const TYPE = /^1 × A100-PCIE-80GB /
/** Any JWT (the API's access tokens are JWTs): header.payload.signature, header starting {". */
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+/

const test = base.extend<{ dataDir: string; printed: string[] }>({
  dataDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'cloud-tray-logs-scan-'))
    await use(dir)
    rmSync(dir, { recursive: true, force: true })
  },
  printed: async ({}, use) => {
    await use([])
  },
  shellOptions: async ({ dataDir, printed }, use) => {
    await use({
      dataDir,
      emulator: { ...FAST_EMULATOR, users: [{ username: USER, password: PASSWORD }] },
      log: (line: string) => void printed.push(line)
    })
  }
})

test('no token, password or passphrase in anything the app wrote', async ({ page, shell, dataDir, printed }) => {
  await page.goto(shell.url)
  await page.getByLabel('User name').fill(USER)
  await page.getByLabel('Password', { exact: true }).fill(WRONG_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('alert')).toContainText('Wrong user name or password.')
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Instances', exact: true })).toBeVisible()

  await page.keyboard.press('Control+N')
  await page.getByLabel('Name', { exact: true }).fill('scan-me')
  await chooseLaunch(page, { type: TYPE, image: IMAGE })
  await launchReviewed(page)
  await expect(page.getByRole('row', { name: /scan-me/ })).toContainText('Running', { timeout: 20_000 })

  await page.getByRole('button', { name: 'Sign out' }).first().click()
  await expect(page.getByRole('heading', { name: 'Sign in to Cloud Tray' })).toBeVisible()
  await shell.close()

  // What the shell printed goes into the scan too.
  const printedDir = mkdtempSync(join(tmpdir(), 'cloud-tray-printed-'))
  try {
    writeFileSync(join(printedDir, 'stdout.log'), printed.join('\n'))
    const { files, hits } = scanForSecrets([dataDir, printedDir], {
      password: PASSWORD,
      'wrong password': WRONG_PASSWORD
    })
    expect
      .soft(
        files.some((file) => /[\\/]logs[\\/]main\.log$/.test(file)),
        `no main.log under ${dataDir}: ${files.join(', ')}`
      )
      .toBe(true)
    expect(hits.map((h) => `${h.label} in ${h.file}:${h.line}`)).toEqual([])

    const withJwt = files.filter((file) => JWT.test(readFileSync(file, 'utf8')))
    expect(withJwt, 'files holding a JWT (an access token)').toEqual([])
  } finally {
    rmSync(printedDir, { recursive: true, force: true })
  }
})
