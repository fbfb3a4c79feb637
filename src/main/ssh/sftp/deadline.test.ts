/** One time limit over many waits, on the app's clock: no real time passes here. */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../../shared/clock'
import { Deadline } from './deadline'

const never = <T>(): Promise<T> => new Promise<T>(() => {})

describe('a deadline over many waits', () => {
  it('passes work that ends in time through, answer or error', async () => {
    const clock = new ManualClock()
    const deadline = new Deadline(clock, 1_000, () => new Error('too long'))
    await expect(deadline.within(Promise.resolve('answer'))).resolves.toBe('answer')
    await expect(deadline.within(Promise.reject(new Error('refused')))).rejects.toThrow('refused')
    expect(deadline.passed).toBeUndefined()
  })

  it('ends a wait still going when it passes, with words asked for then', async () => {
    const clock = new ManualClock()
    let done = 0
    const deadline = new Deadline(clock, 1_000, () => new Error(`too long (${done} done)`))
    const waiting = deadline.within(never())
    waiting.catch(() => undefined)
    done = 3
    await clock.advanceAsync(999)
    expect(deadline.passed).toBeUndefined()
    await clock.advanceAsync(1)
    await expect(waiting).rejects.toThrow('too long (3 done)')
    // Any wait after it is refused at once.
    await expect(deadline.within(Promise.resolve('late'))).rejects.toThrow('too long (3 done)')
  })

  it('cleared, it never passes', async () => {
    const clock = new ManualClock()
    const deadline = new Deadline(clock, 1_000, () => new Error('too long'))
    deadline.clear()
    expect(clock.pending).toBe(0)
    await clock.advanceAsync(5_000)
    expect(deadline.passed).toBeUndefined()
  })
})
