import { describe, expect, it } from 'vitest'
import { RateMeter } from './transfer-rate'

describe('RateMeter', () => {
  it('says nothing until half a second was seen, then the average over the last 5 s', () => {
    const meter = new RateMeter()
    meter.sample(0, 0)
    meter.sample(200, 2_000_000)
    expect(meter.speed()).toBeUndefined()
    meter.sample(1_000, 10_000_000)
    expect(meter.speed()).toBe(10_000_000)
    expect(meter.remaining(30_000_000)).toBe(2_000)
  })

  it('forgets samples older than its window, so a change of pace shows', () => {
    const meter = new RateMeter()
    for (let t = 0; t <= 10_000; t += 1_000) meter.sample(t, t * 1_000) // 1 MB/s
    for (let t = 11_000; t <= 20_000; t += 1_000) meter.sample(t, 10_000_000 + (t - 10_000) * 4_000) // 4 MB/s
    expect(meter.speed()).toBeCloseTo(4_000_000, -3)
  })

  it('has no time left to give while nothing moves', () => {
    const meter = new RateMeter()
    meter.sample(0, 5)
    meter.sample(2_000, 5)
    expect(meter.speed()).toBe(0)
    expect(meter.remaining(100)).toBeUndefined()
  })
})
