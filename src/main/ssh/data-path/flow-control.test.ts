import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CTRL_C_BUDGET_MS, FlowControl, PARSE_BUDGET_MS, PARSE_WINDOW } from './flow-control'

const KiB = 1024

describe('FlowControl', () => {
  it('pauses at its window and resumes as soon as half of it is parsed', () => {
    const flow = new FlowControl()
    expect(flow.window).toBe(PARSE_WINDOW.initial)
    expect(flow.received(PARSE_WINDOW.initial - 1)).toBe('none')
    expect(flow.received(1)).toBe('pause')
    expect(flow.isPaused).toBe(true)
    // A slice of 10 KiB: still paused (and the window a little smaller: bytes wait in the page).
    expect(flow.acknowledged(10 * KiB)).toBe('none')
    expect(flow.isPaused).toBe(true)
    expect(flow.window).toBeLessThan(PARSE_WINDOW.initial)
    // Half of the window parsed: resumed, with the other half still queued in the page. The old
    // marks (resume below 32 KiB of 256 KiB) kept it paused here for a whole frame.
    const half = flow.window / 2
    expect(flow.acknowledged(flow.unacknowledged - half)).toBe('resume')
    expect(flow.unacknowledged).toBe(half)
  })

  it('grows when xterm runs dry before the refill comes, up to its cap', () => {
    const flow = new FlowControl(PARSE_WINDOW, () => 0)
    const sizes: number[] = []
    for (let i = 0; i < 8; i++) {
      // Filled, paused; xterm parses all of it before anything more arrives.
      flow.received(flow.window)
      expect(flow.isPaused).toBe(true)
      expect(flow.acknowledged(flow.unacknowledged)).toBe('resume')
      sizes.push(flow.window)
    }
    expect(sizes[0]).toBe(PARSE_WINDOW.initial * 1.5)
    expect(sizes.at(-1)).toBe(PARSE_WINDOW.max)
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b))
  })

  it('does not grow when nothing was paused (typing, slow output)', () => {
    const flow = new FlowControl()
    for (let i = 0; i < 50; i++) {
      flow.received(2 * KiB)
      flow.acknowledged(2 * KiB)
    }
    expect(flow.window).toBe(PARSE_WINDOW.initial)
  })

  it('shrinks while bytes wait in the page (each slice leaves more than half owed), down to its floor', () => {
    const flow = new FlowControl()
    const sizes: number[] = []
    for (let i = 0; i < 30; i++) {
      // Topped up to the window, xterm parses a quarter of it per slice.
      if (!flow.isPaused) flow.received(flow.window - flow.unacknowledged)
      flow.acknowledged(flow.window / 4)
      sizes.push(flow.window)
    }
    expect(sizes[0]).toBeLessThan(PARSE_WINDOW.initial)
    expect(sizes.at(-1)).toBe(PARSE_WINDOW.min)
  })

  it('holds no more than a Ctrl-C budget of output at the rate xterm acknowledged during the flood', () => {
    let now = 0
    const flow = new FlowControl(PARSE_WINDOW, () => now)
    // A slow transport: every window runs dry before its refill (which would grow it to the
    // cap), and acks come at 2 MB/s (2 kB per ms), one 64 KiB ack each 32 ms.
    for (let i = 0; i < 60; i++) {
      if (!flow.isPaused) flow.received(flow.window - flow.unacknowledged)
      now += 32
      flow.acknowledged(Math.min(64 * KiB, flow.unacknowledged))
    }
    const rate = (64 * KiB) / 32
    expect(flow.window).toBeLessThanOrEqual(Math.max(PARSE_WINDOW.min, Math.round(rate * CTRL_C_BUDGET_MS)))
    // Without a clock's evidence (no flood measured yet) the same runs dry grow it to the cap.
    const unmeasured = new FlowControl(PARSE_WINDOW, () => 0)
    for (let i = 0; i < 8; i++) {
      unmeasured.received(unmeasured.window)
      unmeasured.acknowledged(unmeasured.unacknowledged)
    }
    expect(unmeasured.window).toBe(PARSE_WINDOW.max)
  })

  it("with the parse time the renderer reports, holds a budget of xterm's parse speed, not of the rate it was fed", () => {
    let now = 0
    const flow = new FlowControl(PARSE_WINDOW, () => now)
    // xterm parses 30 MB/s (30 kB per ms of parsing) but waits for its bytes: each window runs
    // dry and its acks come 32 ms apart, so only ~2–8 MB/s arrives. Sized by that rate, the
    // window stayed small and the page kept waiting; sized by the parse speed, it covers the wait.
    const speed = 30_000
    for (let i = 0; i < 60; i++) {
      if (!flow.isPaused) flow.received(flow.window - flow.unacknowledged)
      now += 32
      const bytes = flow.unacknowledged
      flow.acknowledged(bytes, bytes / speed)
    }
    expect(flow.window).toBe(Math.min(PARSE_WINDOW.max, speed * PARSE_BUDGET_MS))
    // A slow parse (a `yes` flood: a line per 2 bytes) keeps it small: a Ctrl-C's echo waits behind it.
    const slow = new FlowControl(PARSE_WINDOW, () => now)
    for (let i = 0; i < 60; i++) {
      if (!slow.isPaused) slow.received(slow.window - slow.unacknowledged)
      now += 32
      const bytes = slow.unacknowledged
      slow.acknowledged(bytes, bytes / 3_000)
    }
    expect(slow.window).toBe(Math.max(PARSE_WINDOW.min, 3_000 * PARSE_BUDGET_MS))
  })

  it("forgets a flood's parse speed after a quiet gap, and learns the next one's within ~20 ms of parsing", () => {
    let now = 0
    const flow = new FlowControl(PARSE_WINDOW, () => now)
    const flood = (speed: number, slices: number): void => {
      for (let i = 0; i < slices; i++) {
        if (!flow.isPaused) flow.received(flow.window - flow.unacknowledged)
        now += 5
        const bytes = Math.min(flow.unacknowledged, Math.round(speed * 5))
        flow.acknowledged(bytes, bytes / speed)
      }
    }
    expect(flow.speed).toBeUndefined()
    // `yes`: 2-byte lines, ~3 MB/s of parsing. The window holds its budget of them.
    flood(3_000, 40)
    expect(flow.speed).toBeCloseTo(3_000)
    expect(flow.window).toBeLessThanOrEqual(3_000 * PARSE_BUDGET_MS)
    // The user presses Ctrl-C and types the next command: a quiet second.
    flow.acknowledged(flow.unacknowledged, 1)
    now += 1_000
    flow.received(100)
    flow.acknowledged(100, 0.01)
    expect(flow.speed).toBeUndefined()
    // Plain lines, ten times faster: measured again once 20 ms of them were parsed, and the
    // window grows to their budget instead of staying at `yes`'s.
    flood(30_000, 3)
    expect(flow.speed).toBeUndefined()
    flood(30_000, 40)
    expect(flow.speed).toBeCloseTo(30_000)
    expect(flow.window).toBeGreaterThan(3_000 * PARSE_BUDGET_MS)
    expect(flow.window).toBeLessThanOrEqual(Math.min(PARSE_WINDOW.max, 30_000 * PARSE_BUDGET_MS))
  })

  it('a quiet gap (typing between floods) does not count as a slow rate', () => {
    let now = 0
    const flow = new FlowControl(PARSE_WINDOW, () => now)
    flow.received(10)
    flow.acknowledged(10)
    now += 60_000
    for (let i = 0; i < 12; i++) {
      flow.received(flow.window)
      now += 5
      flow.acknowledged(flow.unacknowledged)
    }
    expect(flow.window).toBe(PARSE_WINDOW.max)
  })

  it('ignores bogus acks, and an ack of more than is owed does not unlock the flood', () => {
    const flow = new FlowControl({ initial: 100, min: 100, max: 10_000 })
    flow.received(150)
    expect(flow.acknowledged(-5)).toBe('none')
    expect(flow.acknowledged(Number.NaN)).toBe('none')
    expect(flow.acknowledged(1_000_000)).toBe('resume')
    expect(flow.unacknowledged).toBe(0)
    expect(flow.received(149)).toBe('none')
  })

  it('with a channel that stops when paused, never owes more than the largest window plus one chunk', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.record({ data: fc.integer({ min: 1, max: 32 * KiB }) }), fc.record({ ack: fc.integer({ min: 0, max: 1024 * KiB }) })),
          { maxLength: 300 }
        ),
        (steps) => {
          const flow = new FlowControl()
          let owed = 0
          for (const step of steps) {
            if ('data' in step) {
              if (flow.isPaused) continue // a paused channel delivers nothing
              flow.received(step.data)
              owed += step.data
            } else {
              const bytes = Math.min(step.ack, owed)
              owed -= bytes
              flow.acknowledged(bytes)
            }
            expect(flow.unacknowledged).toBe(owed)
            expect(flow.unacknowledged).toBeLessThanOrEqual(PARSE_WINDOW.max + 32 * KiB)
            expect(flow.window).toBeGreaterThanOrEqual(PARSE_WINDOW.min)
            expect(flow.window).toBeLessThanOrEqual(PARSE_WINDOW.max)
            // A paused flow is always owed something: an ack will come to resume it.
            if (flow.isPaused) expect(flow.unacknowledged).toBeGreaterThan(0)
          }
        }
      )
    )
  })

  it('refuses bounds the wrong way round', () => {
    expect(() => new FlowControl({ initial: 10, min: 20, max: 30 })).toThrow()
    expect(() => new FlowControl({ initial: 0, min: 0, max: 30 })).toThrow()
  })
})
