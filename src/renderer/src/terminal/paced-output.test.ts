import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../../shared/clock'
import { highest } from '../../../shared/extremes'
import { BACKGROUND_BYTES, BACKGROUND_TICK_MS, PacedOutput, type PaneOutput } from './paced-output'

function setup() {
  const clock = new ManualClock()
  const written: string[] = []
  const paced = new PacedOutput((output: PaneOutput) => written.push('bytes' in output ? `${output.bytes.length}` : output.line()), clock)
  return { clock, written, paced }
}

describe('PacedOutput', () => {
  it('writes straight through while the pane is shown', () => {
    const { written, paced } = setup()
    paced.setShown(true)
    paced.push({ bytes: new Uint8Array(10) })
    paced.push({ line: () => 'status' })
    expect(written).toEqual(['10', 'status'])
  })

  it('off screen, writes BACKGROUND_BYTES per tick, in order, and the rest at once when shown', () => {
    const { clock, written, paced } = setup()
    const PIECE = BACKGROUND_BYTES / 2
    for (let i = 0; i < 8; i++) paced.push({ bytes: new Uint8Array(PIECE) })
    paced.push({ line: () => 'status' })
    expect(written).toEqual([])
    clock.advance(BACKGROUND_TICK_MS)
    expect(written).toHaveLength(BACKGROUND_BYTES / PIECE)
    clock.advance(BACKGROUND_TICK_MS)
    expect(written).toHaveLength((2 * BACKGROUND_BYTES) / PIECE)
    paced.setShown(true)
    expect(written).toEqual([...Array.from({ length: 8 }, () => String(PIECE)), 'status'])
    expect(paced.waitingBytes).toBe(0)
    // Shown, nothing waiting: straight through again, no timer left behind.
    paced.push({ bytes: new Uint8Array(1) })
    clock.advance(10 * BACKGROUND_TICK_MS)
    expect(written.at(-1)).toBe('1')
    expect(written).toHaveLength(10)
  })

  it('off screen, a large batch is cut: no write holds more than BACKGROUND_BYTES, and the pieces add up, in order', () => {
    const clock = new ManualClock()
    const writes: Uint8Array[] = []
    const paced = new PacedOutput((output: PaneOutput) => void ('bytes' in output && writes.push(output.bytes)), clock)
    const batch = Uint8Array.from({ length: 4 * BACKGROUND_BYTES + 5 }, (_, i) => i % 251)
    paced.push({ bytes: batch })
    for (let tick = 1; tick <= 5; tick++) {
      clock.advance(BACKGROUND_TICK_MS)
      expect(writes).toHaveLength(tick)
    }
    expect(highest(writes.map((bytes) => bytes.length))).toBeLessThanOrEqual(BACKGROUND_BYTES)
    expect(Buffer.concat(writes).equals(Buffer.from(batch))).toBe(true)
    expect(paced.waitingBytes).toBe(0)
  })

  it('a line of its own is made when written, after the output before it', () => {
    const { clock, written, paced } = setup()
    let made = 0
    paced.push({ bytes: new Uint8Array(BACKGROUND_BYTES) })
    paced.push({ line: () => `line ${++made}` })
    expect(made).toBe(0)
    clock.advance(2 * BACKGROUND_TICK_MS)
    expect(written).toEqual([String(BACKGROUND_BYTES), 'line 1'])
  })

  it('nothing is written after dispose', () => {
    const { clock, written, paced } = setup()
    paced.push({ bytes: new Uint8Array(10) })
    paced.dispose()
    clock.advance(10 * BACKGROUND_TICK_MS)
    expect(written).toEqual([])
  })
})
