import { describe, expect, it } from 'vitest'
import { pumpWithBackpressure } from './backpressure'

class FakeSource {
  private listener: ((data: string | Buffer) => void) | undefined
  paused = false
  pauses = 0
  onData(listener: (data: string | Buffer) => void): void {
    this.listener = listener
  }
  emit(data: string): void {
    this.listener?.(data)
  }
  pause(): void {
    this.paused = true
    this.pauses++
  }
  resume(): void {
    this.paused = false
  }
}

/** A channel whose window is closed until `send` lets the oldest writes out. */
class FakeChannel {
  written: string[] = []
  private waiting: (() => void)[] = []
  write(data: string | Buffer, callback: () => void): boolean {
    this.written.push(data.toString())
    this.waiting.push(callback)
    return true
  }
  send(count: number): void {
    for (const callback of this.waiting.splice(0, count)) callback()
  }
}

/** A source pumped into a channel, pausing past `limit` bytes waiting for the window. */
function pumped(limit: number): { source: FakeSource; channel: FakeChannel } {
  const source = new FakeSource()
  const channel = new FakeChannel()
  pumpWithBackpressure(source, channel, limit)
  return { source, channel }
}

describe('pumpWithBackpressure', () => {
  it('stops reading once more than the limit waits for the window, and reads again when it is sent', () => {
    const { source, channel } = pumped(10)
    source.emit('aaaa')
    source.emit('bbbb')
    expect(source.paused).toBe(false)
    source.emit('cccc')
    expect(source.paused).toBe(true)
    // Chunks already read before the pause took effect still go through, and do not pause twice.
    source.emit('dd')
    expect(source.pauses).toBe(1)
    channel.send(2)
    expect(source.paused).toBe(true)
    channel.send(1)
    expect(source.paused).toBe(false)
    source.emit('e')
    expect(channel.written).toEqual(['aaaa', 'bbbb', 'cccc', 'dd', 'e'])
  })

  it('counts bytes, not characters', () => {
    const { source } = pumped(10)
    source.emit('ééééé')
    source.emit('é')
    expect(source.paused).toBe(true)
  })

  it('pauses again when the window closes again', () => {
    const { source, channel } = pumped(3)
    source.emit('1234')
    channel.send(1)
    source.emit('5678')
    expect(source.pauses).toBe(2)
    expect(source.paused).toBe(true)
  })
})
