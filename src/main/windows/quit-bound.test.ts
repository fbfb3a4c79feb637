import { describe, expect, it } from 'vitest'
import { ManualClock, flushAsync } from '../../shared/clock'
import { QUIT_BOUND_MS, boundedQuit } from './quit-bound'

describe('quitting has an upper bound', () => {
  it('leaves as soon as the clean-up is done', async () => {
    const clock = new ManualClock()
    const left: boolean[] = []
    boundedQuit(
      async () => {},
      (timedOut) => left.push(timedOut),
      clock
    )
    await flushAsync()
    expect(left).toEqual([false])
    await clock.advanceAsync(QUIT_BOUND_MS * 2)
    expect(left).toEqual([false])
  })

  it('leaves anyway at the bound when the clean-up hangs, once', async () => {
    const clock = new ManualClock()
    const left: boolean[] = []
    boundedQuit(
      () => new Promise<void>(() => {}),
      (timedOut) => left.push(timedOut),
      clock
    )
    await clock.advanceAsync(QUIT_BOUND_MS - 1)
    expect(left).toEqual([])
    await clock.advanceAsync(1)
    expect(left).toEqual([true])
  })

  it('a failing clean-up still leaves', async () => {
    const clock = new ManualClock()
    const left: boolean[] = []
    boundedQuit(
      () => Promise.reject(new Error('disk full')),
      (timedOut) => left.push(timedOut),
      clock
    )
    await flushAsync()
    expect(left).toEqual([false])
  })
})
