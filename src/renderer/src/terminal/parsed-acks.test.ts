import { describe, expect, it } from 'vitest'
import { ParsedAcks } from './parsed-acks'

describe('ParsedAcks', () => {
  it('sends nothing until the slice ends, then one ack with the sum', () => {
    const sent: number[] = []
    const scheduled: (() => void)[] = []
    const acks = new ParsedAcks(
      (bytes) => sent.push(bytes),
      (flush) => scheduled.push(flush)
    )
    acks.parsed(65_536)
    acks.parsed(65_536)
    acks.parsed(10)
    expect(sent).toEqual([])
    expect(scheduled).toHaveLength(1)
    scheduled.shift()!()
    expect(sent).toEqual([131_082])
    acks.parsed(7)
    expect(scheduled).toHaveLength(1)
    scheduled.shift()!()
    expect(sent).toEqual([131_082, 7])
  })

  it('by default acknowledges in a microtask after the current task', async () => {
    const sent: number[] = []
    const acks = new ParsedAcks((bytes) => sent.push(bytes))
    acks.parsed(3)
    acks.parsed(4)
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
      expect(() => acks.parsed(5)).not.toThrow()
      await Promise.resolve()
      expect(sent).toEqual([5])
    } finally {
      globalThis.queueMicrotask = original
    }
  })
})
