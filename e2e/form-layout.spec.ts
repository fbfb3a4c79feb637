/**
 * The New instance form as a person sees it at 800, 1280 and 2560 px wide (#24): the buttons at
 * its top (Paste request JSON, Clear form) and at its foot (Create instance) stand at the form's
 * right edge, never across the screen from it, and nothing runs past the window.
 */
import { expect, signIn, test } from './web-fixture'

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
  { width: 2560, height: 1440 }
]

test('the form’s buttons stay beside the form at 800, 1280 and 2560 px', async ({ page, shell }) => {
  await signIn(page, shell)
  await page.keyboard.press('Control+N')
  const form = page.getByRole('heading', { name: 'New instance' }).locator('xpath=ancestor::section[1]').locator('form')
  const edges = {
    'Paste request JSON': page.getByRole('button', { name: 'Paste request JSON' }),
    'Clear form': page.getByRole('button', { name: 'Clear form' }),
    'Create instance': form.getByRole('button', { name: 'Create instance' })
  }
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await expect(async () => {
      const formBox = (await form.boundingBox())!
      const formRight = formBox.x + formBox.width
      const clear = (await edges['Clear form'].boundingBox())!
      const create = (await edges['Create instance'].boundingBox())!
      expect(Math.abs(clear.x + clear.width - formRight), `${size.width} px: Clear form ends at the form's edge`).toBeLessThanOrEqual(1)
      expect(
        Math.abs(create.x + create.width - formRight),
        `${size.width} px: Create instance ends at the form's edge`
      ).toBeLessThanOrEqual(1)
      for (const [name, button] of Object.entries(edges)) {
        const box = (await button.boundingBox())!
        expect(box.x + box.width, `${size.width} px: ${name} runs past the window`).toBeLessThanOrEqual(size.width)
      }
    }).toPass({ timeout: 5_000 })
  }
})
