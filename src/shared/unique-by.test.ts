import { describe, expect, it } from 'vitest'
import { repeatedNote, uniqueBy } from './unique-by'

describe('uniqueBy', () => {
  it('#12 item 7: keeps the first entry of each key, in order, and counts the rest', () => {
    const listed = [
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
      { id: 'a', n: 3 },
      { id: 'c', n: 4 },
      { id: 'b', n: 5 }
    ]
    expect(uniqueBy(listed, (x) => x.id)).toEqual({ items: [listed[0], listed[1], listed[3]], repeated: 2 })
    expect(uniqueBy([], (x: { id: string }) => x.id)).toEqual({ items: [], repeated: 0 })
    expect(uniqueBy([8888, 8888, 22], (port) => port)).toEqual({ items: [8888, 22], repeated: 1 })
  })

  it('nothing repeated: the list itself, not a copy (views compare arrays to know what changed)', () => {
    const listed = [{ id: 'a' }, { id: 'b' }]
    expect(uniqueBy(listed, (x) => x.id).items).toBe(listed)
  })

  it('says how many were shown once', () => {
    expect(repeatedNote(0, 'volume')).toBe('')
    expect(repeatedNote(1, 'volume')).toBe('The service listed one volume more than once; it is shown once.')
    expect(repeatedNote(3, 'instance')).toBe('The service listed 3 instances more than once; each is shown once.')
  })
})
