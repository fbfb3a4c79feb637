/** A tab's split layout: split, close (the sibling takes the place), resize within bounds, and the pane in each direction. */
import { describe, expect, it } from 'vitest'
import type { PaneLayout } from '../../../shared/contract-terminals'
import { paneIdsOf, paneTowards, removePane, setRatio, splitPane, splitPlaces } from './pane-layout'

const one: PaneLayout = { kind: 'pane', paneId: 'a' }

describe('a tab’s split layout', () => {
  it('splits a pane beside it or under it, and closing one gives its place to the other', () => {
    const right = splitPane(one, 'a', 'b', 'right')
    expect(right).toEqual({ kind: 'split', direction: 'right', ratio: 0.5, first: one, second: { kind: 'pane', paneId: 'b' } })
    const grid = splitPane(right, 'b', 'c', 'down')
    expect(paneIdsOf(grid)).toEqual(['a', 'b', 'c'])
    expect(removePane(grid, 'b')).toEqual({
      kind: 'split',
      direction: 'right',
      ratio: 0.5,
      first: one,
      second: { kind: 'pane', paneId: 'c' }
    })
    expect(removePane(removePane(removePane(grid, 'b')!, 'c')!, 'a')).toBeUndefined()
  })

  it('resizes the split at a path, never below a tenth of the space', () => {
    const grid = splitPane(splitPane(one, 'a', 'b', 'right'), 'b', 'c', 'down')
    expect(setRatio(grid, [], 0.7)).toMatchObject({ ratio: 0.7 })
    expect(setRatio(grid, ['second'], 0.02)).toMatchObject({ second: { ratio: 0.1 } })
    expect(setRatio(grid, ['second'], 3)).toMatchObject({ second: { ratio: 0.9 } })
  })

  it('moves the focus to the neighbouring pane in each direction, and nowhere past the edge', () => {
    // a | b
    //   | c
    const grid = splitPane(splitPane(one, 'a', 'b', 'right'), 'b', 'c', 'down')
    expect(paneTowards(grid, 'a', 'right')).toBe('b')
    expect(paneTowards(grid, 'b', 'down')).toBe('c')
    expect(paneTowards(grid, 'c', 'up')).toBe('b')
    expect(paneTowards(grid, 'c', 'left')).toBe('a')
    expect(paneTowards(grid, 'a', 'left')).toBeUndefined()
    expect(paneTowards(grid, 'a', 'up')).toBeUndefined()
  })
})

describe('the keys a pane hands to its tab', () => {
  const key = (code: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>>, keyName = code) => ({
    type: 'keydown',
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    code,
    key: keyName,
    ...mods
  })

  it('splits, moves, closes and reconnects; leaves everything else to the shell', async () => {
    const { paneKeyCommand } = await import('./terminal-keys')
    expect(paneKeyCommand(key('KeyD', { ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'split', direction: 'right' })
    expect(paneKeyCommand(key('KeyD', { metaKey: true, shiftKey: true, altKey: true }))).toEqual({ kind: 'split', direction: 'down' })
    expect(paneKeyCommand(key('ArrowLeft', { ctrlKey: true, altKey: true }))).toEqual({ kind: 'focus', direction: 'left' })
    expect(paneKeyCommand(key('KeyW', { ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'close-pane' })
    expect(paneKeyCommand(key('KeyR', { ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'reconnect' })
    expect(paneKeyCommand(key('KeyD', { ctrlKey: true }))).toBeUndefined()
    expect(paneKeyCommand(key('ArrowLeft', { altKey: true }))).toBeUndefined()
    expect(paneKeyCommand(key('KeyC', { ctrlKey: true, shiftKey: true }))).toBeUndefined()
  })
})

describe('splitPlaces', () => {
  it('lists each split with the rect it divides, outermost first', () => {
    const layout = splitPane(splitPane({ kind: 'pane', paneId: 'a' }, 'a', 'b', 'right'), 'b', 'c', 'down')
    expect(splitPlaces(layout)).toEqual([
      { path: [], direction: 'right', ratio: 0.5, rect: { x: 0, y: 0, w: 1, h: 1 } },
      { path: ['second'], direction: 'down', ratio: 0.5, rect: { x: 0.5, y: 0, w: 0.5, h: 1 } }
    ])
    expect(splitPlaces({ kind: 'pane', paneId: 'a' })).toEqual([])
  })
})
