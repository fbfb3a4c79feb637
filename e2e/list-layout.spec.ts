/**
 * The instance list as a person sees it at 800, 1280 and 2560 px wide: every column header stands
 * exactly over its cells (bounding boxes), no header word is cut, and no status word is cut at
 * 1280 px and wider, for the longest statuses a new user meets.
 */
import type { Locator } from '@playwright/test'
import { expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 120_000 })

const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
  { width: 2560, height: 1440 }
]

/** Whether an element shows all of its text (nothing clipped behind an ellipsis). */
function showsAll(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)
}

test('headers line up with their cells and no word is cut, at 800, 1280 and 2560 px', async ({ page, shell }) => {
  const emulator = shell.emulator()
  const statuses = ['PullingImage', 'StartingFailed', 'InitializationFailed', 'Initializing', 'Running']
  for (const status of statuses) {
    const [id] = await emulator.seedInstances('demo', 1, { name: `status-${status.toLowerCase()}` })
    emulator.setStatus(id!, status)
  }
  await signIn(page, shell)
  const table = page.getByRole('table', { name: 'Instances' })
  await expect(table.getByRole('row')).toHaveCount(statuses.length + 1)
  await expect(table.getByText('Downloading image')).toBeVisible()

  for (const size of SIZES) {
    await page.setViewportSize(size)
    const at = `${size.width} px`
    // Every header and cell, shown or not: a column left to the details has no box and is skipped.
    const headers = table.locator('[role="columnheader"]')
    const rows = table.getByRole('row')
    const cellsOf = (row: number): Locator => rows.nth(row).locator('[role="cell"]')
    await expect(headers).toHaveCount(8)
    // Let the table take its new width (its layout follows its own width), and every row with it:
    // the whole comparison is retried until it holds. A run on a loaded machine saw the edges meet
    // a frame before the widths did, and once (CI, 2026-11-27) row 2's name cell still 1222 px
    // wider than its header at 2560 px after row 1 had settled; alone, the spec passes every time.
    await expect(async () => {
      for (let column = 0; column < 8; column++) {
        const header = headers.nth(column)
        const headerBox = await header.boundingBox()
        // A header named for screen readers only (its cells are on a row's second line, or in the details) has no box to compare.
        if (!headerBox || headerBox.width <= 1) continue
        const name = (await header.textContent())?.trim()
        expect(await showsAll(header), `${at}: the "${name}" header is cut`).toBe(true)
        for (let row = 1; row <= statuses.length; row++) {
          const cellBox = (await cellsOf(row).nth(column).boundingBox())!
          expect(Math.abs(cellBox.x - headerBox.x), `${at}: "${name}" column, row ${row}: left edge`).toBeLessThanOrEqual(1)
          expect(Math.abs(cellBox.width - headerBox.width), `${at}: "${name}" column, row ${row}: width`).toBeLessThanOrEqual(1)
        }
      }
    }).toPass({ timeout: 10_000 })
    // Below the widest tier the region joins the GPU cell after a "·" with a space each side
    // (Svelte drops whitespace at the edges of a tag, which once glued the "·" to the GPU).
    const gpuCell = await cellsOf(1).nth(2).innerText()
    expect(gpuCell, `${at}: the GPU cell`).not.toMatch(/\S·|·\S/)
    if (size.width < 2560) expect(gpuCell, `${at}: the GPU cell names the region`).toContain(' · ')
    // The badge starts where its header starts (the "STATUS 80 px right of its badges").
    const statusHeader = (await headers.nth(1).boundingBox())!
    const badges = table.locator('.status.pill')
    for (let index = 0; index < statuses.length; index++) {
      const badge = (await badges.nth(index).boundingBox())!
      expect(Math.abs(badge.x - statusHeader.x), `${at}: status badge ${index + 1} under its header`).toBeLessThanOrEqual(1)
      if (size.width >= 1280) {
        const text = badges.nth(index).locator('.text')
        expect(await showsAll(text), `${at}: the status "${await text.textContent()}" is cut`).toBe(true)
      }
    }
  }
})
