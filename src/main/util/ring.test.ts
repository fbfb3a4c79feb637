import { describe, expect, it } from 'vitest'
import { Ring } from './ring'

describe('Ring', () => {
  it('keeps the newest `capacity` items, oldest first, however many come', () => {
    const ring = new Ring<number>(3)
    expect(ring.toArray()).toEqual([])
    expect(ring.last()).toBeUndefined()
    for (let value = 1; value <= 100_000; value++) ring.push(value)
    expect(ring.size).toBe(3)
    expect(ring.toArray()).toEqual([99_998, 99_999, 100_000])
    expect(ring.first()).toBe(99_998)
    expect(ring.last()).toBe(100_000)
  })

  it('drops the oldest while they are old', () => {
    const ring = new Ring<number>(4)
    for (const value of [1, 2, 3, 4, 5]) ring.push(value)
    ring.dropWhile((value) => value < 4)
    expect(ring.toArray()).toEqual([4, 5])
    ring.push(6)
    ring.push(7)
    ring.push(8)
    expect(ring.toArray()).toEqual([5, 6, 7, 8])
    ring.dropWhile(() => true)
    expect(ring.size).toBe(0)
    expect(ring.first()).toBeUndefined()
  })

  it('needs room for one item at least', () => {
    expect(() => new Ring(0)).toThrow(RangeError)
  })
})
