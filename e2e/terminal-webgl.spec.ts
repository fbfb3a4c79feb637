/**
 * The terminal's renderer (terminal-pane.svelte.ts, loadWebgl): xterm's WebGL renderer where a
 * GPU draws WebGL, the DOM renderer on a software rasteriser, and back to the DOM renderer when
 * the WebGL context is lost (a GPU reset, a driver update, too many contexts).
 *
 * Headless Chromium here has WebGL2 only through SwiftShader, a software rasteriser, which the
 * app declines. For the WebGL case the page is told, before the app loads, that the renderer is
 * a GPU (WEBGL_debug_renderer_info is the only thing changed): the WebGL addon then really draws
 * through SwiftShader's WebGL2, and the context is really lost, through WEBGL_lose_context on the
 * terminal's own canvas. After that the terminal must say DOM and draw what is typed as text in
 * its rows (the WebGL renderer has none).
 */
import type { Page } from '@playwright/test'
import { posixShellMissing, skipBecause } from '../src/shared/node/testing/platform-support'
import { expectInScrollback, openFirstTerminal, REACHABLE_SANDBOX, typeCommand } from './terminal-helpers'
import { expect, signIn, test } from './web-fixture'

test.describe.configure({ timeout: 150_000 })
test.skip(skipBecause(posixShellMissing(), 'the terminal renderer spec'), posixShellMissing() ?? '')
test.use({ shellOptions: REACHABLE_SANDBOX })

/** Before the app's scripts: WEBGL_debug_renderer_info names a GPU instead of SwiftShader. */
const SEEN_AS_A_GPU = `(() => {
  const UNMASKED_RENDERER_WEBGL = 0x9246
  for (const context of [WebGLRenderingContext, WebGL2RenderingContext]) {
    const getParameter = context.prototype.getParameter
    context.prototype.getParameter = function (name) {
      return name === UNMASKED_RENDERER_WEBGL ? 'ANGLE (Stand-in GPU for the renderer test)' : getParameter.call(this, name)
    }
  }
})()`

/** Loses the WebGL context of every canvas of the terminal that has one; answers how many. */
const LOSE_CONTEXT = `(() => {
  let lost = 0
  for (const canvas of document.querySelectorAll('.xterm-host canvas')) {
    // The canvas's own context, not a new one: getContext answers the existing one of that kind, null for a 2d canvas.
    const gl = canvas.getContext('webgl2')
    const extension = gl && gl.getExtension('WEBGL_lose_context')
    if (extension) {
      extension.loseContext()
      lost++
    }
  }
  return lost
})()`

const renderer = (page: Page) => page.getByText(/Renderer: (WebGL|DOM)/)
/** What the DOM renderer drew: the text of the terminal's rows. */
const rows = (page: Page) => page.locator('.xterm-host .xterm-rows')

async function openTerminal(page: Page, shell: Parameters<typeof signIn>[1], name: string): Promise<void> {
  await shell.emulator().seedInstances('demo', 1, { name })
  await signIn(page, shell)
  const row = page.getByRole('row', { name: new RegExp(name) })
  await expect(row).toContainText('Running', { timeout: 20_000 })
  await openFirstTerminal(page, row)
}

test('with a GPU the terminal draws with WebGL; when the context is lost it goes on with the DOM renderer', async ({ page, shell }) => {
  await page.addInitScript(SEEN_AS_A_GPU)
  await openTerminal(page, shell, 'webgl-e2e')
  await expect(renderer(page)).toHaveText(/Renderer: WebGL/)
  await typeCommand(page, 'echo gl-$((6*7))')
  await expectInScrollback(page, 'gl-42')
  // WebGL draws on its canvas: there are no rows of text.
  await expect(rows(page)).toHaveCount(0)
  await expect(page.locator('.xterm-host canvas').first()).toBeVisible()

  expect(await page.evaluate(LOSE_CONTEXT)).toBeGreaterThan(0)
  // The addon waits 3 s for the context to come back before it gives up on it.
  await expect(renderer(page)).toHaveText(/Renderer: DOM/, { timeout: 15_000 })
  // The DOM renderer draws the screen as it was, and what comes next.
  await expect(rows(page)).toContainText('gl-42')
  await typeCommand(page, 'echo dom-$((6*7))')
  await expect(rows(page)).toContainText('dom-42')
  await expect(page.locator('.xterm-host canvas')).toHaveCount(0)
})

test('on a software rasteriser (SwiftShader) the terminal draws with the DOM renderer', async ({ page, shell }) => {
  await openTerminal(page, shell, 'soft-e2e')
  await expect(renderer(page)).toHaveText(/Renderer: DOM/)
  await typeCommand(page, 'echo soft-$((6*7))')
  await expect(rows(page)).toContainText('soft-42')
})
