import { describe, expect, it } from 'vitest'
import { NumberedRecords } from './numbered-records'

describe('NumberedRecords', () => {
  it('numbers new records in order, and after a restore goes on past the highest restored number', () => {
    const records = new NumberedRecords<{ seq: number }>()
    expect([records.take(), records.take()]).toEqual([0, 1])
    records.restore('old', { seq: 7 })
    records.restore('older', { seq: 3 })
    expect(records.get('old')).toEqual({ seq: 7 })
    expect(records.take()).toBe(8)
  })
})
