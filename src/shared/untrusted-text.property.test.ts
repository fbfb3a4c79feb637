/** Server text shown in a sentence: whatever it is, one visible line of bounded length. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cutText, serverLine, serverLines } from './untrusted-text'

const INVISIBLE = /[\p{Cc}\u2028\u2029]|(?![\u200C\u200D])\p{Cf}/u

describe('server text, whatever it is', () => {
  it('a line: visible, no line breaks, at most the length asked', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })),
        fc.integer({ min: 1, max: 300 }),
        (text, max) => {
          const line = serverLine(text, max)
          expect(INVISIBLE.test(line)).toBe(false)
          expect(Array.from(line).length).toBeLessThanOrEqual(max)
          expect(Array.from(cutText(text, max)).length).toBeLessThanOrEqual(max)
          const lines = serverLines(text, max)
          expect(Array.from(lines).length).toBeLessThanOrEqual(max)
          expect(/[\p{Cc}]/u.test(lines.replace(/\n/g, ''))).toBe(false)
        }
      )
    )
  })
})
