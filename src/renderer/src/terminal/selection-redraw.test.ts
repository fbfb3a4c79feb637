import type { Terminal } from '@xterm/xterm'
import { describe, expect, it } from 'vitest'
import { skipEmptySelectionRedraws } from './selection-redraw'

type Cell = [number, number] | undefined

/** A terminal shaped as xterm 6.0.0's is inside, recording what reaches its render service. */
function fakeTerminal(): { term: Terminal; calls: [Cell, Cell][] } {
  const calls: [Cell, Cell][] = []
  const renderService = {
    handleSelectionChanged(start: Cell, end: Cell) {
      calls.push([start, end])
    }
  }
  return { term: { _core: { _renderService: renderService } } as unknown as Terminal, calls }
}

const redraw = (term: Terminal, start: Cell, end: Cell): void =>
  (
    term as unknown as { _core: { _renderService: { handleSelectionChanged: (s: Cell, e: Cell, c: boolean) => void } } }
  )._core._renderService.handleSelectionChanged(start, end, false)

describe('skipEmptySelectionRedraws', () => {
  it('passes on every change of selection and skips refreshes with nothing selected before or now', () => {
    const { term, calls } = fakeTerminal()
    expect(skipEmptySelectionRedraws(term)).toBe(true)
    redraw(term, undefined, undefined) // the first may clear a selection drawn before
    redraw(term, undefined, undefined)
    redraw(term, undefined, undefined)
    redraw(term, [0, 1], [4, 1]) // selected
    redraw(term, [0, 0], [4, 0]) // scrolled with it
    redraw(term, undefined, undefined) // cleared: drawn away
    redraw(term, undefined, undefined)
    expect(calls).toEqual([
      [undefined, undefined],
      [
        [0, 1],
        [4, 1]
      ],
      [
        [0, 0],
        [4, 0]
      ],
      [undefined, undefined]
    ])
  })

  it('leaves a terminal alone whose internals are not as expected', () => {
    expect(skipEmptySelectionRedraws({} as Terminal)).toBe(false)
    expect(skipEmptySelectionRedraws({ _core: { _renderService: {} } } as unknown as Terminal)).toBe(false)
  })
})
