/**
 * A terminal's size comes from the window (and, through xterm, from what a program asks of it):
 * whatever arrives, the check never throws, and what it lets through is a size a PTY can take.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { INPUT_SCHEMAS, NOTICE_SCHEMAS } from './input-schemas'

const size = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1e9, Number.NaN, Infinity), fc.jsonValue())

describe('terminal sizes, whatever comes', () => {
  it('open and resize take whole numbers in bounds, and refuse the rest without a throw', () => {
    fc.assert(
      fc.property(size, size, fc.string({ maxLength: 10 }), (cols, rows, id) => {
        const opened = INPUT_SCHEMAS['ssh.open'].safeParse({ instanceId: id || 'i', cols, rows })
        const resized = NOTICE_SCHEMAS['ssh.resize'].safeParse({ terminalId: id || 't', cols, rows })
        for (const parsed of [opened, resized]) {
          if (!parsed.success) continue
          const value = parsed.data as { cols: number; rows: number }
          expect(Number.isInteger(value.cols) && value.cols >= 1 && value.cols <= 2000).toBe(true)
          expect(Number.isInteger(value.rows) && value.rows >= 1 && value.rows <= 1000).toBe(true)
        }
      })
    )
  })
})
