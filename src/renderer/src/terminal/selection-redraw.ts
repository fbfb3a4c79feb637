/**
 * Stops xterm 6.0.0's DOM renderer from drawing every row twice a frame while output scrolls.
 *
 * Each scroll queues a selection refresh (CoreBrowserTerminal: onScroll → SelectionService
 * .refresh), whose animation frame calls RenderService.handleSelectionChanged, and the DOM
 * renderer's handler redraws all rows (`renderRows(0, rows - 1)`) whether or not anything is or
 * was selected, on top of the frame's own redraw. In a flood profile that second pass was ~57 %
 * of the DOM renderer's row drawing, and the page draws up to 60 frames a second; users without
 * a GPU (VMs, remote desktops, blocklisted drivers) get the DOM renderer. xterm 6.1 (in beta)
 * redraws only the old and new selection's rows instead; this skips the call when neither
 * exists, which is what 6.1 then draws: nothing.
 *
 * It reaches into xterm's internals (`_core._renderService`), so it checks their shape and
 * leaves xterm as it is when they differ (an upgrade that renames them loses only the saving).
 * The WebGL renderer's handler only updates its model; skipping a no-op there is harmless.
 */
import type { Terminal } from '@xterm/xterm'

type Cell = [number, number] | undefined
interface RenderServiceInternals {
  handleSelectionChanged: (start: Cell, end: Cell, columnSelectMode: boolean) => void
}

/** Installs the skip on an opened terminal; false when xterm's internals are not as expected. */
export function skipEmptySelectionRedraws(term: Terminal): boolean {
  const renderService = (term as unknown as { _core?: { _renderService?: Partial<RenderServiceInternals> } })._core?._renderService
  const original = renderService?.handleSelectionChanged
  if (!renderService || typeof original !== 'function') return false
  // Until told otherwise a selection may be drawn: the first empty refresh still clears it.
  let selectionShown = true
  renderService.handleSelectionChanged = (start, end, columnSelectMode) => {
    const selected = start !== undefined && end !== undefined
    if (!selected && !selectionShown) return
    selectionShown = selected
    original.call(renderService, start, end, columnSelectMode)
  }
  return true
}
