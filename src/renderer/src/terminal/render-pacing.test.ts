import type { Terminal } from '@xterm/xterm'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../../shared/clock'
import {
  ASK_AFTER_DRAWN_MS,
  FLOOD_BYTES,
  FLOOD_FRAME_MS,
  FLOOD_HOLD_MS,
  FLOOD_WINDOW_MS,
  RenderPacer,
  paceRendering
} from './render-pacing'

type Drawn = [at: number, start: number, end: number, redrawOnly: boolean]

const FRAME = 1000 / 60

/**
 * A pacer whose draws xterm renders as it does: at the next animation frame (60 Hz here), when it
 * tells the pacer (onRender). `rendersAt`: when those renders happened, ms from the start.
 */
function pacer(): { clock: ManualClock; pacer: RenderPacer; drawn: Drawn[]; rendersAt: number[]; t0: number } {
  const clock = new ManualClock()
  const t0 = clock.now()
  const drawn: Drawn[] = []
  const rendersAt: number[] = []
  let renderWaits = false
  const p = new RenderPacer((start, end, redrawOnly) => {
    drawn.push([clock.now() - t0, start, end, redrawOnly])
    if (renderWaits) return
    renderWaits = true
    const sinceStart = clock.now() - t0
    clock.setTimeout(
      () => {
        renderWaits = false
        rendersAt.push(clock.now() - t0)
        p.rendered()
      },
      (Math.floor(sinceStart / FRAME) + 1) * FRAME - sinceStart
    )
  }, clock)
  return { clock, t0, drawn, rendersAt, pacer: p }
}

/** A flood as the pane writes it: 64 KiB every 2 ms, each parse asking for the whole screen. */
function flood(clock: ManualClock, p: RenderPacer, ms: number): void {
  for (let elapsed = 0; elapsed < ms; elapsed += 2) {
    p.noteOutput(64 * 1024)
    p.request(0, 23, false)
    clock.advance(2)
  }
}

describe('RenderPacer', () => {
  it('passes every request on at once while no output floods (typing, an echo, a prompt)', () => {
    const { clock, pacer: p, drawn } = pacer()
    for (let key = 0; key < 20; key++) {
      p.noteOutput(3) // an echoed key and its cursor move
      p.request(5, 5, false)
      clock.advance(8) // a fast typist: 125 keys a second
    }
    expect(drawn).toHaveLength(20)
    expect(drawn.map(([at]) => at)).toEqual(Array.from({ length: 20 }, (_, key) => key * 8))
    expect(p.flooding).toBe(false)
  })

  it('during a flood has xterm render every other frame, with every row asked for since', () => {
    const { clock, pacer: p, drawn, rendersAt } = pacer()
    flood(clock, p, 500)
    expect(p.flooding).toBe(true)
    // The first draw is asked for at once; the flood is recognised within FLOOD_BYTES of output.
    expect(drawn[0]![0]).toBe(0)
    const gaps = rendersAt.slice(1).map((at, index) => at - rendersAt[index]!)
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(FLOOD_FRAME_MS)
    for (const gap of gaps) expect(gap).toBeLessThan(FLOOD_FRAME_MS + FRAME)
    // 15 renders in 500 ms instead of 30 (and instead of a draw asked for per request: 250).
    expect(rendersAt.length).toBe(15)
    expect(drawn).toHaveLength(15)
  })

  it('asks at most once per FLOOD_FRAME_MS on a page so busy that frames run as soon as it asks', () => {
    const clock = new ManualClock()
    const asked: number[] = []
    const p: RenderPacer = new RenderPacer(() => {
      asked.push(clock.now())
      p.rendered() // drawn at once: the frame was overdue
    }, clock)
    flood(clock, p, 500)
    const gaps = asked.slice(1).map((at, index) => at - asked[index]!)
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(FLOOD_FRAME_MS)
    expect(asked.length).toBeGreaterThanOrEqual(Math.floor(500 / FLOOD_FRAME_MS) - 1)
  })

  it('merges the rows asked for while a draw waits, and redraw-only only if every request was', () => {
    const { clock, pacer: p, drawn } = pacer()
    flood(clock, p, 40)
    clock.advance(2 * FLOOD_FRAME_MS) // what the flood asked for is drawn
    drawn.length = 0
    p.rendered() // a frame just drew: the next is asked for ASK_AFTER_DRAWN_MS later at the soonest
    p.request(10, 12, true)
    p.request(3, 4, true)
    clock.advance(ASK_AFTER_DRAWN_MS - 1)
    expect(drawn).toEqual([])
    clock.advance(FLOOD_FRAME_MS)
    expect(drawn.map((draw) => draw.slice(1))).toEqual([[3, 12, true]])
    p.request(10, 12, true)
    p.request(3, 4, false)
    clock.advance(FLOOD_FRAME_MS + FRAME)
    expect(drawn.map((draw) => draw.slice(1))).toEqual([
      [3, 12, true],
      [3, 12, false]
    ])
  })

  it('draws what the flood left at most FLOOD_FRAME_MS after its last output, then goes back to drawing at once', () => {
    const { clock, pacer: p, drawn, rendersAt, t0 } = pacer()
    flood(clock, p, 300)
    const lastOutputAt = clock.now() - t0 - 2
    clock.advance(FLOOD_FRAME_MS + FRAME)
    expect(drawn.at(-1)![0]).toBeLessThanOrEqual(lastOutputAt + FLOOD_FRAME_MS)
    expect(rendersAt.at(-1)!).toBeLessThanOrEqual(lastOutputAt + FLOOD_FRAME_MS + FRAME)
    clock.advance(FLOOD_HOLD_MS)
    expect(p.flooding).toBe(false)
    const before = drawn.length
    p.noteOutput(2)
    p.request(7, 7, false)
    expect(drawn).toHaveLength(before + 1)
    expect(drawn.at(-1)![0]).toBe(clock.now() - t0)
  })

  it('stays in a flood through its dips: bursts FLOOD_HOLD_MS apart at most', () => {
    const { clock, pacer: p } = pacer()
    for (let burst = 0; burst < 10; burst++) {
      p.noteOutput(FLOOD_BYTES)
      clock.advance(FLOOD_HOLD_MS - 1)
      expect(p.flooding).toBe(true)
    }
    clock.advance(1)
    expect(p.flooding).toBe(false)
  })

  it('does not call a flood what stays under FLOOD_BYTES in any FLOOD_WINDOW_MS', () => {
    const { clock, pacer: p } = pacer()
    for (let i = 0; i < 50; i++) {
      p.noteOutput(FLOOD_BYTES / 4 - 1)
      clock.advance(FLOOD_WINDOW_MS / 4)
    }
    expect(p.flooding).toBe(false)
  })

  it('draws nothing after it is disposed (the pane closed with a redraw waiting)', () => {
    const { clock, pacer: p, drawn } = pacer()
    flood(clock, p, 40)
    const before = drawn.length
    p.request(0, 23, false)
    p.dispose()
    clock.advance(1000)
    p.request(0, 23, false)
    expect(drawn).toHaveLength(before)
    expect(clock.pending).toBe(0)
  })
})

describe('paceRendering', () => {
  it("wraps xterm 6.0's render service: its redraw requests go through the pacer, with xterm's own `this`", () => {
    const calls: [number, number, boolean | undefined][] = []
    const renderService = {
      refreshRows(this: unknown, start: number, end: number, isRedrawOnly?: boolean) {
        if (this !== renderService) throw new Error('called without its render service')
        calls.push([start, end, isRedrawOnly])
      }
    }
    let onRender: (() => void) | undefined
    const term = {
      _core: { _renderService: renderService },
      onRender: (listener: () => void) => (onRender = listener)
    } as unknown as Terminal
    const clock = new ManualClock()
    const p = paceRendering(term, clock)
    expect(p).toBeDefined()
    renderService.refreshRows(0, 9) // as xterm calls it, without the third argument
    expect(calls).toEqual([[0, 9, false]])
    onRender!() // xterm drew the rows at the next frame
    p!.noteOutput(FLOOD_BYTES)
    renderService.refreshRows(2, 3)
    renderService.refreshRows(1, 1, true)
    expect(calls).toHaveLength(1)
    clock.advance(FLOOD_FRAME_MS)
    expect(calls).toEqual([
      [0, 9, false],
      [1, 3, false]
    ])
  })

  it('moves the textarea to the cursor at once, except during a flood: then with the next redraw', () => {
    const moves: number[] = []
    const core = {
      _renderService: { refreshRows() {} },
      _syncTextArea(this: unknown) {
        if (this !== core) throw new Error('called without its terminal')
        moves.push(clock.now())
      }
    }
    const term = { _core: core, onRender: () => undefined } as unknown as Terminal
    const clock = new ManualClock()
    const p = paceRendering(term, clock)!
    core._syncTextArea() // a key's echo moved the cursor
    expect(moves).toHaveLength(1)
    p.noteOutput(FLOOD_BYTES)
    core._renderService.refreshRows() // drawn at once: the first of the flood
    core._syncTextArea()
    core._syncTextArea()
    core._renderService.refreshRows()
    expect(moves).toHaveLength(1)
    clock.advance(FLOOD_FRAME_MS)
    expect(moves).toHaveLength(2) // once, with the redraw
    // A move with no redraw asked after it still comes, when one would be due.
    core._syncTextArea()
    expect(moves).toHaveLength(2)
    clock.advance(FLOOD_FRAME_MS)
    expect(moves).toHaveLength(3)
  })

  it('leaves a terminal alone whose internals are not as expected', () => {
    expect(paceRendering({} as Terminal, new ManualClock())).toBeUndefined()
    expect(paceRendering({ _core: { _renderService: {} } } as unknown as Terminal, new ManualClock())).toBeUndefined()
  })
})
