import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { keepTailOnExit, type SlaveAccess } from './pty-tail'

class FakeStream extends EventEmitter {
  paused = false
  destroyed = 0
  resumed = 0
  isPaused(): boolean {
    return this.paused
  }
  resume(): this {
    this.paused = false
    this.resumed++
    return this
  }
  destroy(): this {
    this.destroyed++
    return this
  }
}

function fakeSlave(): SlaveAccess & { open: SlaveAccess['open']; opened: string[]; closed: number[] } {
  const opened: string[] = []
  const closed: number[] = []
  return { opened, closed, open: (path) => (opened.push(path), 42), close: (fd) => void closed.push(fd) }
}

describe('keepTailOnExit', () => {
  it('holds the slave open until node-pty’s exit-time destroy, then lets go and reads the tail', () => {
    const stream = new FakeStream()
    const slave = fakeSlave()
    keepTailOnExit({ _socket: stream, _pty: '/dev/pts/7' }, slave)
    expect(slave.opened).toEqual(['/dev/pts/7'])
    stream.paused = true // backpressure
    stream.destroy()
    expect(slave.closed).toEqual([42])
    expect(stream.resumed).toBe(1)
    expect(stream.destroyed).toBe(0)
    stream.emit('close') // the stream ended by itself after the tail
    expect(slave.closed).toEqual([42])
  })

  it('releases the slave when the stream closes first, and a second destroy is the real one', () => {
    const stream = new FakeStream()
    const slave = fakeSlave()
    keepTailOnExit({ _socket: stream, _pty: '/dev/pts/7' }, slave)
    stream.emit('close')
    expect(slave.closed).toEqual([42])
    stream.destroy()
    stream.destroy()
    expect(stream.destroyed).toBe(1)
    expect(slave.closed).toEqual([42])
  })

  it('still works without a slave it can open, and leaves a non-node-pty object alone', () => {
    const stream = new FakeStream()
    keepTailOnExit(
      { _socket: stream, _pty: '/dev/pts/7' },
      {
        open: () => {
          throw new Error('EACCES')
        },
        close: () => {}
      }
    )
    stream.destroy()
    expect(stream.resumed).toBe(1)
    expect(() => keepTailOnExit({})).not.toThrow()
  })
})
