/**
 * Which rows of a long list to put in the DOM: the visible ones plus a margin, so scrolling
 * 1000 rows costs what scrolling 30 does. Rows have a fixed height (the list's CSS sets it).
 */
export interface VirtualWindow {
  /** First row index rendered. */
  start: number
  /** One past the last row index rendered. */
  end: number
  /** Space above and below the rendered rows, in px. */
  padTop: number
  padBottom: number
}

export function virtualWindow(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 8): VirtualWindow {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 }
  // Before layout the viewport may report 0: render a screenful rather than nothing.
  const height = viewportHeight > 0 ? viewportHeight : rowHeight * 30
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight)
  const visible = Math.ceil(height / rowHeight) + 1
  const start = Math.max(0, Math.min(count - 1, first) - overscan)
  const end = Math.min(count, first + visible + overscan)
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight }
}
