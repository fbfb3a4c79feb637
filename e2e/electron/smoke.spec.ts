/**
 * The built desktop app, launched by Playwright's Electron support on a fresh data folder: it
 * opens on the Sandbox profile and shows the login window. Needs `npm run build` first (out/)
 * and an Electron binary; where none is installed it skips and says why. The binary's path is
 * worked out here without `require('electron')`, which would try to download it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'

const root = join(import.meta.dirname, '..', '..')
const mainEntry = join(root, 'out', 'main', 'index.js')

function electronBinary(): { path?: string; reason?: string } {
  const packageDir = join(root, 'node_modules', 'electron')
  const pathFile = join(packageDir, 'path.txt')
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH']
  const path = override ? join(override, relative ?? 'electron') : relative ? join(packageDir, 'dist', relative) : undefined
  if (!path || !existsSync(path)) {
    return { reason: `No Electron binary is installed (looked for ${path ?? join(packageDir, 'path.txt')}); the Electron smoke test is skipped.` }
  }
  return { path }
}

test('the built app starts on the Sandbox and shows the login window', async () => {
  const binary = electronBinary()
  if (binary.reason) console.log(binary.reason)
  test.skip(binary.path === undefined, binary.reason)
  test.skip(!existsSync(mainEntry), 'out/main/index.js is missing: run `npm run build` first.')

  const userData = mkdtempSync(join(tmpdir(), 'cloud-tray-smoke-'))
  const app = await electron.launch({
    executablePath: binary.path!,
    args: [mainEntry, `--user-data-dir=${userData}`],
    env: { ...process.env, ELECTRON_ENABLE_LOGGING: '1' }
  })
  try {
    const window = await app.firstWindow()
    await expect(window.getByRole('heading', { name: 'Sign in to Cloud Tray' })).toBeVisible()
    await expect(window.getByRole('button', { name: 'Sign in' })).toBeVisible()
    // The renderer sees window.cloud and nothing of Node (context isolation, sandbox, no nodeIntegration).
    const globals = await window.evaluate(() => {
      const g = globalThis as { cloud?: unknown; require?: unknown; process?: unknown }
      return [typeof g.cloud, typeof g.require, typeof g.process]
    })
    expect(globals).toEqual(['object', 'undefined', 'undefined'])
  } finally {
    await app.close()
    rmSync(userData, { recursive: true, force: true })
  }
})
