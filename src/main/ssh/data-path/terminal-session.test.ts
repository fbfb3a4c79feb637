import { EventEmitter } from 'node:events'
import type { ClientChannel } from 'ssh2'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../../shared/clock'
import { BATCH_MAX_BYTES } from './batcher'
import { PARSE_WINDOW } from './flow-control'
import { watchShellExit } from './shell-exit'
import { ECHO_BYTES, ECHO_WAIT_MS, TerminalSession } from './terminal-session'

/** What TerminalSession uses of an ssh2 channel. */
class FakeChannel extends EventEmitter {
  readonly stderr = new EventEmitter()
  paused = false
  readableLength = 0
  readonly written: unknown[] = []
  write(data: unknown): boolean {
    this.written.push(data)
    return true
  }
  pause(): this {
    this.paused = true
    return this
  }
  resume(): this {
    this.paused = false
    return this
  }
}

/** Terminal t1 of client c1 on instance i1, 80×24; a test hands the callbacks it watches. */
function newSession(over: Partial<ConstructorParameters<typeof TerminalSession>[0]> = {}): TerminalSession {
  return new TerminalSession({
    id: 't1',
    instanceId: 'i1',
    clientId: 'c1',
    cols: 80,
    rows: 24,
    clock: new ManualClock(),
    send: () => {},
    onShellExit: () => {},
    onChannelLost: () => {},
    ...over
  })
}

function setup() {
  const clock = new ManualClock()
  const sent: Uint8Array[] = []
  const session = newSession({ clock, send: (data) => sent.push(data) })
  const channel = new FakeChannel()
  session.attach(channel as unknown as ClientChannel)
  const sentBytes = (): number => sent.reduce((sum, batch) => sum + batch.length, 0)
  return { clock, session, channel, sentBytes }
}

describe('TerminalSession', () => {
  it('reports the exit status of a shell that ended before it was attached (it came with the channel)', () => {
    const ends: string[] = []
    const session = newSession({
      onShellExit: (_session, code) => ends.push(`exit ${code}`),
      onChannelLost: () => ends.push('lost')
    })
    const channel = new FakeChannel()
    // What SshConnection.shell does in ssh2's callback, before anyone awaiting it can attach.
    watchShellExit(channel as unknown as ClientChannel)
    channel.emit('exit', 127)
    session.attach(channel as unknown as ClientChannel)
    channel.emit('close')
    expect(ends).toEqual(['exit 127'])
  })

  it('holds a small tail for the batching delay while output flows', () => {
    const { clock, channel, sentBytes } = setup()
    channel.emit('data', Buffer.alloc(1000, 0x61))
    expect(sentBytes()).toBe(0)
    clock.advance(16)
    expect(sentBytes()).toBe(1000)
  })

  it('sends output at the next turn, not after the batching delay, for a second after the user typed (the echo)', () => {
    const { clock, channel, session, sentBytes } = setup()
    session.write('a')
    channel.emit('data', Buffer.from('a'))
    expect(sentBytes()).toBe(0)
    clock.advance(0)
    expect(sentBytes()).toBe(1)
    // A second later, output is the program's own again: batched as before.
    clock.advance(ECHO_WAIT_MS)
    channel.emit('data', Buffer.from('bc'))
    clock.advance(0)
    expect(sentBytes()).toBe(1)
    clock.advance(16)
    expect(sentBytes()).toBe(3)
  })

  it("after a key, only the first ECHO_BYTES go out at the next turn (a command's output after Enter is batched)", () => {
    const { clock, channel, session, sentBytes } = setup()
    session.write('\r')
    channel.emit('data', Buffer.alloc(ECHO_BYTES, 0x61))
    clock.advance(0)
    expect(sentBytes()).toBe(ECHO_BYTES)
    channel.emit('data', Buffer.alloc(1000, 0x61))
    clock.advance(0)
    expect(sentBytes()).toBe(ECHO_BYTES)
    clock.advance(16)
    expect(sentBytes()).toBe(ECHO_BYTES + 1000)
  })

  it('sends everything it has at once when flow control pauses the channel', () => {
    const { channel, session, sentBytes } = setup()
    const packet = Buffer.alloc(30_000, 0x61)
    let taken = 0
    while (!channel.paused) {
      channel.emit('data', packet)
      taken += packet.length
    }
    // The tail that did not fill a batch went out too: the renderer can parse (and acknowledge)
    // all of it while nothing more comes, instead of waiting 16 ms for it.
    expect(sentBytes()).toBe(taken)
    expect(taken).toBeGreaterThanOrEqual(PARSE_WINDOW.initial)
    expect(taken % BATCH_MAX_BYTES).not.toBe(0)
    // xterm parsed 100 kB in one slice, more than half the window still owed: still paused;
    // the next slice leaves a quarter owed, and the channel resumes.
    session.ack(100_000)
    expect(channel.paused).toBe(true)
    session.ack(taken - 100_000 - PARSE_WINDOW.initial / 4)
    expect(channel.paused).toBe(false)
  })

  it('is not left paused when a consumer acknowledges a batch before the chunk that filled the window is handled', () => {
    // A consumer in the same process may acknowledge inside `send` (the SSH tests' harness does):
    // the batch that a chunk completes goes out, and is acknowledged, before the pause that same
    // chunk caused. That resume must not be undone by the pause that follows it: the channel was
    // left paused with nothing owed, and the terminal stopped for good (an OpenSSH `yes` test
    // timed out that way under the suite's load).
    const window = { initial: 48 * 1024, min: 32 * 1024, max: 1024 * 1024 }
    const session: TerminalSession = newSession({ parseWindow: window, send: (data) => session.ack(data.length) })
    const channel = new FakeChannel()
    session.attach(channel as unknown as ClientChannel)
    // 40 kB waits in the batcher; the next 32 kB fill both the window and a 64 KiB batch.
    channel.emit('data', Buffer.alloc(40_000, 0x61))
    channel.emit('data', Buffer.alloc(32_000, 0x61))
    expect(session.stats().unacknowledged).toBeLessThan(window.initial / 2)
    expect(channel.paused).toBe(false)
  })
})
