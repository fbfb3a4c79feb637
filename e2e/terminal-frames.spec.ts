/**
 * How the DOM renderer draws a flood (terminal-pane.svelte.ts with render-pacing.ts and
 * selection-redraw.ts): redraws paced while output floods, each row once in a redraw, and a
 * selection still drawn and cleared. Both reach into xterm 6.0's internals, so this
 * is also what notices an xterm upgrade that moved them.
 *
 * Headless Chromium here has no GPU: the terminal draws with the DOM renderer, whose rows are
 * elements a MutationObserver can count.
 */
import type { Page } from '@playwright/test'
import { SANDBOX_PROFILE_ID } from '../src/main/account/profiles'
import { ASK_AFTER_DRAWN_MS } from '../src/renderer/src/terminal/render-pacing'
import { lowest } from '../src/shared/extremes'
import { posixShellMissing, skipBecause } from '../src/shared/node/testing/platform-support'
import { openFirstTerminal, REACHABLE_SANDBOX, typeCommand } from './terminal-helpers'
import { expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 150_000 })
test.skip(skipBecause(posixShellMissing(), 'the terminal frames spec'), posixShellMissing() ?? '')
test.use({ shellOptions: REACHABLE_SANDBOX })

/**
 * Records, until read, when the DOM renderer redrew rows: per animation frame (its own counter,
 * registered a frame ahead, runs first in each frame) the rows whose children were replaced, and
 * when (performance.now(): a busy page runs its frames late, so their vsync times say little).
 */
const ROW_DRAWS = `(() => {
  const container = document.querySelector('.xterm-host .xterm-rows')
  const frames = new Map()
  let frame = 0
  let counting = true
  const tick = () => { frame++; if (counting) requestAnimationFrame(tick) }
  requestAnimationFrame(tick)
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type !== 'childList' || record.target.parentElement !== container) continue
      const row = Array.prototype.indexOf.call(container.children, record.target)
      if (!frames.has(frame)) frames.set(frame, { at: performance.now(), rows: [] })
      frames.get(frame).rows.push(row)
    }
  })
  observer.observe(container, { childList: true, subtree: true })
  window.__rowDraws = () => {
    counting = false
    observer.disconnect()
    const list = [...frames.values()]
    return {
      draws: list.reduce((total, f) => total + f.rows.length, 0),
      twice: list.reduce((total, f) => total + f.rows.length - new Set(f.rows).size, 0),
      times: list.map((f) => f.at)
    }
  }
})()`

interface RowDraws {
  draws: number
  /** Rows drawn a second time in the same frame. */
  twice: number
  /** When each frame that redrew rows did (ms). */
  times: number[]
}

const rows = (page: Page) => page.locator('.xterm-host .xterm-rows')

test('a flood is drawn at most ~30 times a second, each row once a frame, and a selection is still drawn', async ({ page, shell }) => {
  // A plain shell: tmux would redraw the screen at its own pace instead of passing the flood on.
  const set = await shell.core.handle(
    'settings.update',
    { terminals: { plainShellProfiles: [SANDBOX_PROFILE_ID] } },
    { clientId: 'e2e-setup' }
  )
  expect(set.ok).toBe(true)
  await shell.emulator().seedInstances('demo', 1, { name: 'frames-e2e' })
  await signIn(page, shell)
  const row = page.getByRole('row', { name: /frames-e2e/ })
  await expect(row).toContainText('Running', { timeout: 20_000 })
  await openFirstTerminal(page, row)
  await expect(page.getByText(/Renderer: DOM/)).toBeVisible()

  // Counting starts after the command line's echo: keys are drawn at once, however close.
  const flood = "seq 1 100000 | sed 's/^/n-the-quick-brown-fox-jumps-over-the-lazy-dog-/'"
  await page.locator('.xterm-helper-textarea').first().focus()
  await page.keyboard.type(flood)
  await expect(rows(page)).toContainText(flood)
  await page.evaluate(ROW_DRAWS)
  await page.keyboard.press('Enter')
  await expect(rows(page)).toContainText('dog-100000', { timeout: 60_000 })
  const { draws, twice, times } = (await page.evaluate('window.__rowDraws()')) as RowDraws

  // Stock xterm 6.0.0 draws every row a second time in each frame that scrolled (selection-redraw.ts).
  expect(draws, 'rows drawn while 100,000 lines scrolled').toBeGreaterThan(100)
  expect(twice, `rows drawn twice in one frame, of ${draws} drawn`).toBeLessThanOrEqual(draws * 0.05)
  // Paced (render-pacing.ts): once the flood is seen, xterm is asked to redraw at most once per
  // FLOOD_FRAME_MS and never within ASK_AFTER_DRAWN_MS of its last redraw. A page this busy runs
  // its frames late, so some redraws still come closer than FLOOD_FRAME_MS, but none closer than
  // that. Drawn at every frame, 16–33 % of the gaps were under 24 ms here, some under 15.
  const gaps = times.slice(2).map((at, index) => at - times[index + 1]!)
  const list = gaps.map((gap) => gap.toFixed(0)).join(' ')
  expect(gaps.length, 'redraws during the flood').toBeGreaterThan(10)
  expect(lowest(gaps), `the closest redraws (gaps: ${list})`).toBeGreaterThanOrEqual(ASK_AFTER_DRAWN_MS - 2)
  expect(gaps.filter((gap) => gap < 24).length, `redraws under 24 ms apart (gaps: ${list})`).toBeLessThanOrEqual(gaps.length * 0.1)

  // Once the flood is over, what is typed is drawn as before.
  await typeCommand(page, 'echo typed-$((6*7))')
  await expect(rows(page)).toContainText('typed-42')

  // A selection is still drawn, and cleared.
  const selection = page.locator('.xterm-host .xterm-selection div')
  // xterm's screen takes the mouse above its rows: force clicks there, at the word.
  await rows(page).getByText('typed-42').last().dblclick({ force: true })
  await expect(selection.first()).toBeVisible()
  // Typing clears it; the output that follows scrolls with nothing selected.
  await typeCommand(page, 'echo cleared-$((6*7))')
  await expect(rows(page)).toContainText('cleared-42')
  await expect(selection).toHaveCount(0)
})
