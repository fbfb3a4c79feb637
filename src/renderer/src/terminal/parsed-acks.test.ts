import { describe, expect, it } from 'vitest'
import { ParsedAcks } from './parsed-acks'

describe('ParsedAcks', () => {
  it('sends nothing until the slice ends, then one ack with the sums of bytes and parse time', () => {
    const sent: [number, number][] = []
    const scheduled: (() => void)[] = []
    const acks = new ParsedAcks(
      (bytes, ms) => sent.push([bytes, ms]),
      (flush) => scheduled.push(flush)
    )
    acks.parsed(65_536, 2)
    acks.parsed(65_536, 2.5)
    acks.parsed(10, 0.25)
    expect(sent).toEqual([])
    expect(scheduled).toHaveLength(1)
    scheduled.shift()!()
    expect(sent).toEqual([[131_082, 4.75]])
    acks.parsed(7, 0.5)
    expect(scheduled).toHaveLength(1)
    scheduled.shift()!()
    expect(sent).toEqual([
      [131_082, 4.75],
      [7, 0.5]
    ])
  })

  it('by default acknowledges in a microtask after the current task', async () => {
    const sent: number[] = []
    const acks = new ParsedAcks((bytes) => sent.push(bytes))
    acks.parsed(3, 0)
    acks.parsed(4, 0)
    expect(sent).toEqual([])
    await Promise.resolve()
    expect(sent).toEqual([7])
  })

  it('calls queueMicrotask as a plain function, as the browser requires', async () => {
    const original = globalThis.queueMicrotask
    globalThis.queueMicrotask = function (this: unknown, callback: () => void) {
      // What Chromium does when queueMicrotask is called as a method of another object.
      if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation')
      original(callback)
    }
    try {
      const sent: number[] = []
      const acks = new ParsedAcks((bytes) => sent.push(bytes))
      expect(() => acks.parsed(5, 0)).not.toThrow()
      await Promise.resolve()
      expect(sent).toEqual([5])
    } finally {
      globalThis.queueMicrotask = original
    }
  })
})
