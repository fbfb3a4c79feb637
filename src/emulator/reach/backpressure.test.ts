import { EventEmitter } from 'node:events'
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

class FakeSink extends EventEmitter {
  written: string[] = []
  full = false
  write(data: string | Buffer): boolean {
    this.written.push(data.toString())
    return !this.full
  }
}

describe('pumpWithBackpressure', () => {
  it('pauses the source when the channel is full and resumes it on drain, losing nothing', () => {
    const source = new FakeSource()
    const sink = new FakeSink()
    pumpWithBackpressure(source, sink)
    source.emit('a')
    expect(source.paused).toBe(false)
    sink.full = true
    source.emit('b')
    expect(source.paused).toBe(true)
    // Chunks already read before the pause took effect still go through, and do not pause twice.
    source.emit('c')
    expect(source.pauses).toBe(1)
    expect(sink.listenerCount('drain')).toBe(1)
    sink.full = false
    sink.emit('drain')
    expect(source.paused).toBe(false)
    source.emit('d')
    expect(sink.written).toEqual(['a', 'b', 'c', 'd'])
  })

  it('pauses again on the next full channel', () => {
    const source = new FakeSource()
    const sink = new FakeSink()
    pumpWithBackpressure(source, sink)
    sink.full = true
    source.emit('1')
    sink.emit('drain')
    source.emit('2')
    expect(source.pauses).toBe(2)
    expect(source.paused).toBe(true)
  })
})
