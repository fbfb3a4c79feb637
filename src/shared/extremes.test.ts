import { describe, expect, it } from 'vitest'
import { highest, lowest } from './extremes'

describe('lowest and highest', () => {
  it('answer by a loop, for any number of values (#21: a spread throws past ~125k)', () => {
    const many = Array.from({ length: 500_000 }, (_, index) => (index * 7919) % 100_003)
    // What the spread does with this many (lint refuses it everywhere else).
    // eslint-disable-next-line no-restricted-syntax
    expect(() => Math.min(...many)).toThrow(RangeError)
    expect(lowest(many)).toBe(0)
    expect(highest(many)).toBe(100_002)
  })

  it('undefined for none; NaN is skipped; any iterable', () => {
    expect(lowest([])).toBeUndefined()
    expect(highest([])).toBeUndefined()
    expect(lowest([NaN, 3, NaN, -2])).toBe(-2)
    expect(highest(new Set([1, NaN, 9]))).toBe(9)
    expect(highest([NaN])).toBeUndefined()
  })
})
