import { describe, expect, it } from 'vitest'
import { probeRoundTrips, type ForwardCanceller } from './round-trip'

/** A client whose server answers each probe after the given delays, on a hand-driven clock. */
function clientAnswering(delays: number[], clock: { now: number }): ForwardCanceller & { requests: string[] } {
  const requests: string[] = []
  return {
    requests,
    unforwardIn(bindAddr, bindPort, callback) {
      requests.push(`${bindAddr}:${bindPort}`)
      const delay = delays.shift()
      if (delay === undefined) throw new Error('Not connected')
      clock.now += delay
      queueMicrotask(() => callback(new Error('Unable to unbind from 127.0.0.1:0')))
      return this
    }
  }
}

describe('probeRoundTrips', () => {
  it('times each refused cancel-forward request, one after another', async () => {
    const clock = { now: 1_000 }
    const client = clientAnswering([9, 2, 4], clock)
    const seen: number[] = []
    expect(
      await probeRoundTrips(
        client,
        (ms) => seen.push(ms),
        3,
        () => clock.now
      )
    ).toEqual([9, 2, 4])
    expect(seen).toEqual([9, 2, 4])
    expect(client.requests).toEqual(['127.0.0.1:0', '127.0.0.1:0', '127.0.0.1:0'])
  })

  it('stops when the connection is gone', async () => {
    const clock = { now: 0 }
    const seen: number[] = []
    expect(
      await probeRoundTrips(
        clientAnswering([5], clock),
        (ms) => seen.push(ms),
        3,
        () => clock.now
      )
    ).toEqual([5])
    expect(seen).toEqual([5])
  })
})
