import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FlowControl, HIGH_WATERMARK, LOW_WATERMARK } from './flow-control'

describe('FlowControl', () => {
  it('pauses above the high watermark and resumes only below the low one', () => {
    const flow = new FlowControl()
    expect(flow.received(HIGH_WATERMARK)).toBe('none')
    expect(flow.received(1)).toBe('pause')
    expect(flow.received(10)).toBe('none')
    expect(flow.isPaused).toBe(true)
    expect(flow.acknowledged(HIGH_WATERMARK - LOW_WATERMARK)).toBe('none')
    expect(flow.isPaused).toBe(true)
    expect(flow.acknowledged(20)).toBe('resume')
    expect(flow.unacknowledged).toBeLessThan(LOW_WATERMARK)
  })

  it('ignores bogus acks and clamps acks larger than what is owed', () => {
    const flow = new FlowControl(100, 10)
    flow.received(150)
    expect(flow.acknowledged(-5)).toBe('none')
    expect(flow.acknowledged(Number.NaN)).toBe('none')
    expect(flow.acknowledged(1_000)).toBe('resume')
    expect(flow.unacknowledged).toBe(0)
  })

  it('with a channel that stops when paused, never owes more than the high watermark plus one chunk', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.record({ data: fc.integer({ min: 1, max: 32 * 1024 }) }), fc.record({ ack: fc.integer({ min: 0, max: 64 * 1024 }) })),
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
            expect(flow.unacknowledged).toBeLessThanOrEqual(HIGH_WATERMARK + 32 * 1024)
          }
        }
      )
    )
  })

  it('refuses watermarks the wrong way round', () => {
    expect(() => new FlowControl(10, 10)).toThrow()
  })
})
