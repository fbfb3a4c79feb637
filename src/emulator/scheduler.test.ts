import { describe, expect, it } from 'vitest'
import { ManualClock } from '../shared/clock'
import { Scheduler } from './scheduler'

describe('Scheduler', () => {
  it('runs chained jobs from their due times when advanced past them all', () => {
    const scheduler = new Scheduler(new ManualClock(0))
    const log: [string, number][] = []
    scheduler.at('a', 100, () => {
      log.push(['a', scheduler.now()])
      scheduler.at('b', scheduler.now() + 100, () => log.push(['b', scheduler.now()]))
    })
    scheduler.advance(1000)
    expect(log).toEqual([
      ['a', 100],
      ['b', 200]
    ])
    expect(scheduler.now()).toBe(1000)
  })

  it('fires on the clock alone, in time order, and honours cancel and replace', () => {
    const clock = new ManualClock(0)
    const scheduler = new Scheduler(clock)
    const log: string[] = []
    scheduler.at('late', 300, () => log.push('late'))
    scheduler.at('early', 100, () => log.push('early'))
    scheduler.at('gone', 200, () => log.push('gone'))
    scheduler.cancel('gone')
    scheduler.at('late', 250, () => log.push('late-replaced'))
    clock.advance(299)
    expect(log).toEqual(['early', 'late-replaced'])
    expect(clock.pending).toBe(0)
  })

  it('keeps going when a job throws, and reports the error', () => {
    const errors: unknown[] = []
    const scheduler = new Scheduler(new ManualClock(0), (error) => errors.push(error))
    const log: string[] = []
    scheduler.at('bad', 10, () => {
      throw new Error('boom')
    })
    scheduler.at('good', 20, () => log.push('good'))
    scheduler.advance(50)
    expect(log).toEqual(['good'])
    expect(errors).toHaveLength(1)
  })

  it('refuses to go back in time', () => {
    expect(() => new Scheduler(new ManualClock(0)).advance(-1)).toThrow(RangeError)
  })
})
