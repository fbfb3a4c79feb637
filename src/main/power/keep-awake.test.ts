/** When the computer is held awake: from the first transfer to the end of the last, told once each way. */
import { describe, expect, it } from 'vitest'
import { KeepAwake, mustStayAwake } from './keep-awake'

describe('keep awake', () => {
  it('holds while any transfer is under way, and only then', () => {
    expect(mustStayAwake({ transfers: 0 })).toBe(false)
    expect(mustStayAwake({ transfers: 1 })).toBe(true)
    expect(mustStayAwake({ transfers: 7 })).toBe(true)
  })

  it('starts the hold once for the first transfer and ends it once after the last, however many overlap', () => {
    const told: boolean[] = []
    const awake = new KeepAwake((hold) => told.push(hold))
    for (const transfers of [1, 2, 3, 2, 1, 0]) awake.update({ transfers })
    expect(told).toEqual([true, false])
    expect(awake.held).toBe(false)
    // Another begins later: held again.
    awake.update({ transfers: 1 })
    expect(told).toEqual([true, false, true])
    expect(awake.held).toBe(true)
  })

  it('tells nothing while nothing runs', () => {
    const told: boolean[] = []
    const awake = new KeepAwake((hold) => told.push(hold))
    awake.update({ transfers: 0 })
    awake.update({ transfers: 0 })
    expect(told).toEqual([])
  })
})
