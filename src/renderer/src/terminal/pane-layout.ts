/**
 * A tab's split layout as pure data (the same shape main saves, contract-terminals.ts): a pane,
 * or two parts side by side (`right`) or one above the other (`down`) sharing the space by a
 * ratio. Splitting, closing, resizing and moving the focus to the pane in a direction are pure
 * functions of it, so the view only draws what they return.
 */
import type { PaneLayout } from '../../../shared/contract-terminals'

export type Direction = 'left' | 'right' | 'up' | 'down'
/** Where a split node sits: the way from the root, first or second part at each level. */
export type SplitPath = ('first' | 'second')[]

export const MIN_RATIO = 0.1
export const MAX_RATIO = 0.9

export function paneIdsOf(layout: PaneLayout): string[] {
  return layout.kind === 'pane' ? [layout.paneId] : [...paneIdsOf(layout.first), ...paneIdsOf(layout.second)]
}

/** `paneId` shares its place with a new pane: beside it (`right`) or under it (`down`), half and half. */
export function splitPane(layout: PaneLayout, paneId: string, newPaneId: string, direction: 'right' | 'down'): PaneLayout {
  if (layout.kind === 'pane') {
    if (layout.paneId !== paneId) return layout
    return { kind: 'split', direction, ratio: 0.5, first: layout, second: { kind: 'pane', paneId: newPaneId } }
  }
  return {
    ...layout,
    first: splitPane(layout.first, paneId, newPaneId, direction),
    second: splitPane(layout.second, paneId, newPaneId, direction)
  }
}

/** The layout without `paneId` (its sibling takes the place); undefined when it was the last pane. */
export function removePane(layout: PaneLayout, paneId: string): PaneLayout | undefined {
  if (layout.kind === 'pane') return layout.paneId === paneId ? undefined : layout
  const first = removePane(layout.first, paneId)
  const second = removePane(layout.second, paneId)
  if (!first) return second
  if (!second) return first
  return { ...layout, first, second }
}

/** The split at `path` with a new ratio, kept within MIN_RATIO–MAX_RATIO. */
export function setRatio(layout: PaneLayout, path: SplitPath, ratio: number): PaneLayout {
  if (layout.kind === 'pane') return layout
  const [step, ...rest] = path
  if (step === undefined) return { ...layout, ratio: clampRatio(ratio) }
  return { ...layout, [step]: setRatio(layout[step], rest, ratio) }
}

export function clampRatio(ratio: number): number {
  return Math.min(MAX_RATIO, Math.max(MIN_RATIO, Number.isFinite(ratio) ? ratio : 0.5))
}

export interface Rect {
  x: number
  y: number
  w: number
  h: number
}

/** Where each pane sits in the tab, as fractions of its width and height. */
export function paneRects(layout: PaneLayout, rect: Rect = { x: 0, y: 0, w: 1, h: 1 }): Map<string, Rect> {
  if (layout.kind === 'pane') return new Map([[layout.paneId, rect]])
  const { ratio } = layout
  const [a, b]: [Rect, Rect] =
    layout.direction === 'right'
      ? [
          { ...rect, w: rect.w * ratio },
          { ...rect, x: rect.x + rect.w * ratio, w: rect.w * (1 - ratio) }
        ]
      : [
          { ...rect, h: rect.h * ratio },
          { ...rect, y: rect.y + rect.h * ratio, h: rect.h * (1 - ratio) }
        ]
  return new Map([...paneRects(layout.first, a), ...paneRects(layout.second, b)])
}

/** The pane next to `paneId` in `direction` (the nearest that overlaps it across), or undefined at the edge. */
export function paneTowards(layout: PaneLayout, paneId: string, direction: Direction): string | undefined {
  const rects = paneRects(layout)
  const from = rects.get(paneId)
  if (!from) return undefined
  const epsilon = 1e-9
  let best: { id: string; distance: number; offset: number } | undefined
  for (const [id, rect] of rects) {
    if (id === paneId) continue
    const horizontal = direction === 'left' || direction === 'right'
    const overlaps = horizontal
      ? rect.y < from.y + from.h - epsilon && rect.y + rect.h > from.y + epsilon
      : rect.x < from.x + from.w - epsilon && rect.x + rect.w > from.x + epsilon
    if (!overlaps) continue
    const distance =
      direction === 'right'
        ? rect.x - (from.x + from.w)
        : direction === 'left'
          ? from.x - (rect.x + rect.w)
          : direction === 'down'
            ? rect.y - (from.y + from.h)
            : from.y - (rect.y + rect.h)
    if (distance < -epsilon) continue
    const offset = horizontal ? Math.abs(rect.y - from.y) : Math.abs(rect.x - from.x)
    if (!best || distance < best.distance - epsilon || (Math.abs(distance - best.distance) <= epsilon && offset < best.offset)) {
      best = { id, distance, offset }
    }
  }
  return best?.id
}

/** A split of the layout as drawn: where it is (`path`), its direction and ratio, and its rect. */
export interface SplitPlace {
  path: SplitPath
  direction: 'right' | 'down'
  ratio: number
  rect: Rect
}

/** Every split of the layout with the rect it divides (fractions of the tab), outermost first. */
export function splitPlaces(layout: PaneLayout, rect: Rect = { x: 0, y: 0, w: 1, h: 1 }, path: SplitPath = []): SplitPlace[] {
  if (layout.kind === 'pane') return []
  const rects = paneRects({ ...layout, first: { kind: 'pane', paneId: 'a' }, second: { kind: 'pane', paneId: 'b' } }, rect)
  return [
    { path, direction: layout.direction, ratio: layout.ratio, rect },
    ...splitPlaces(layout.first, rects.get('a')!, [...path, 'first']),
    ...splitPlaces(layout.second, rects.get('b')!, [...path, 'second'])
  ]
}
