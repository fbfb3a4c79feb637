import { test, expect } from '@playwright/test'

test('chromium renders a page', async ({ page }) => {
  await page.setContent('<button>Sign in</button>')
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
})
