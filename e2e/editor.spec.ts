/**
 * #24, "Open in VS Code fails the first time": the first click writes the Host block and opens
 * the editor (the chosen editor is kept until the launch ran); on a computer where nothing takes
 * vscode: links the window says so and links VS Code's download page. The desktop's handler for
 * editor links is the web shell's recording platform, here accepting or refusing; the SSH config
 * is written into a home folder of the test's own.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REACHABLE_SANDBOX } from './terminal-helpers'
import { expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 120_000 })

const sshHome = mkdtempSync(join(tmpdir(), 'cloud-tray-e2e-home-'))
/** What the desktop does with an editor link: nothing installed refuses it, as ship's Linux adapter reports. */
const handler = { installed: true, asked: [] as string[] }
test.use({
  shellOptions: {
    ...REACHABLE_SANDBOX,
    sshHome,
    editorHandler: async (url) => {
      handler.asked.push(url)
      if (!handler.installed) throw new Error('No application on this desktop opens vscode: links.')
    }
  }
})
test.afterAll(() => rmSync(sshHome, { recursive: true, force: true }))

test('the first click opens VS Code; without VS Code the window says so and links its download page', async ({ page, shell }) => {
  await shell.emulator().seedInstances('demo', 1, { name: 'editor-box' })
  await signIn(page, shell)
  await page.getByRole('button', { name: /^Details of editor-box/ }).click()
  const details = page.getByRole('complementary', { name: 'Instance details' })
  await details.getByRole('button', { name: 'Open in VS Code' }).click()

  // The Host block is shown first; this file does not exist yet, so nothing is "backed up".
  const config = page.getByRole('dialog', { name: 'Add to ~/.ssh/config' })
  await expect(config.getByLabel('Host block')).toContainText('Host cloudtray-editor-box-1')
  await expect(config).toContainText('The file does not exist yet: it is created.')
  await expect(config).not.toContainText('backed up')
  await config.getByRole('button', { name: 'Write and open in VS Code' }).click()
  await expect(config).toBeHidden()

  // First click: the editor was asked to open the instance, and nothing says "undefined".
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText('Opening in VS Code')).toBeVisible()
  expect(handler.asked).toHaveLength(1)
  expect(handler.asked[0]).toMatch(/^vscode:\/\/vscode-remote\/ssh-remote\+cloudtray-editor-box-1/)
  await expect(page.getByText(/undefined|Invalid option/)).toHaveCount(0)
  expect(readFileSync(join(sshHome, '.ssh', 'config'), 'utf8')).toContain('Host cloudtray-editor-box-1')

  // A computer without VS Code: the block is in place, the OS refuses the link, the window says so.
  handler.installed = false
  await details.getByRole('button', { name: 'Open in VS Code' }).click()
  const missing = page.getByRole('dialog', { name: 'VS Code did not open' })
  await expect(missing.getByRole('alert')).toHaveText(
    'VS Code did not open: no application on this desktop opens vscode: links. It seems not to be installed here: install it with its Remote - SSH extension, then open again.'
  )
  const download = missing.getByRole('link', { name: 'Download VS Code' })
  await expect(download).toHaveAttribute('href', 'https://code.visualstudio.com/download')
  await download.click()
  await expect(page.getByRole('list', { name: 'Recorded effects' })).toContainText('https://code.visualstudio.com/download')
  await missing.getByRole('button', { name: 'Close' }).first().click()
  await expect(missing).toBeHidden()
  handler.installed = true
})
