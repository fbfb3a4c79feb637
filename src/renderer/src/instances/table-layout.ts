/**
 * How the instance table lays out at a width (its own width, not the window's: the details panel
 * takes part of it). Pure, so the thresholds are tested without a browser; the CSS of each tier is
 * in InstanceTable.svelte, and the row heights here are the ones it draws (the virtual list needs them).
 */
export type TableTier = 'wide' | 'two-line' | 'narrow'

export type TableColumn = 'name' | 'status' | 'gpu' | 'region' | 'price' | 'uptime' | 'load' | 'actions'

export interface TableLayout {
  tier: TableTier
  /** Each row's height in px (the header's is its own). */
  rowHeight: number
  /**
   * Columns a row (and the one-line header) leaves to screen readers: what a narrower table
   * leaves to the details, and the header's words for what stands on a row's second line.
   */
  spokenOnly: { row: ReadonlySet<TableColumn>; head: ReadonlySet<TableColumn> }
}

const WIDE: TableLayout = { tier: 'wide', rowHeight: 52, spokenOnly: { row: new Set(), head: new Set() } }
const TWO_LINE: TableLayout = {
  tier: 'two-line',
  rowHeight: 72,
  spokenOnly: { row: new Set(['region']), head: new Set(['region', 'gpu', 'actions']) }
}
const NARROW: TableLayout = {
  tier: 'narrow',
  rowHeight: 72,
  spokenOnly: { row: new Set(['gpu', 'region', 'uptime', 'load']), head: new Set(['gpu', 'region', 'uptime', 'load', 'actions']) }
}

/**
 * Every column on one line from here: the fixed columns and gaps take ~790 px, and the name, GPU
 * and region share what is left (400 px and more). Narrower, the GPU goes under the name.
 */
export const WIDE_FROM_PX = 1180
/** Below this the second line holds only the actions (name, status, price on the first). */
export const TWO_LINE_FROM_PX = 600

export function tableLayout(widthPx: number): TableLayout {
  // Before the first layout (0) the widest is assumed: a row is never taller than it has to be.
  if (widthPx === 0 || widthPx >= WIDE_FROM_PX) return WIDE
  return widthPx >= TWO_LINE_FROM_PX ? TWO_LINE : NARROW
}
