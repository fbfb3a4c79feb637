import { describe, expect, it } from 'vitest'
import { TOP_UP_AFTER, WIDE_WINDOW, widenReceiveWindow } from './wide-window'

/**
 * What ssh2's client does per CHANNEL_DATA: count the packet against the window, then push it.
 * An SFTPWrapper holds its protocol itself; a Channel (a tunnel's) reaches it through `_client`.
 */
function fakeChannel(kind: 'sftp' | 'channel' = 'sftp', reader: { full: boolean } = { full: false }) {
  const granted: number[] = []
  const pushed: number[] = []
  const protocol = { channelWindowAdjust: (recipient: number, amount: number) => granted.push(recipient === 7 ? amount : -1) }
  const channel = {
    incoming: { window: 2 * 1024 * 1024 },
    outgoing: { id: 7 },
    ...(kind === 'sftp' ? { _protocol: protocol } : { _client: { _protocol: protocol } }),
    push: (data: Buffer | null): boolean => {
      pushed.push(data?.length ?? -1)
      return !reader.full
    }
  }
  const receive = (bytes: number): void => {
    channel.incoming.window -= bytes
    channel.push(Buffer.alloc(bytes))
  }
  return { channel, granted, pushed, receive }
}

describe('widenReceiveWindow', () => {
  it('grants up to WIDE_WINDOW at once, then tops up every TOP_UP_AFTER received', () => {
    const { channel, granted, pushed, receive } = fakeChannel()
    expect(widenReceiveWindow(channel)).toBe(true)
    expect(channel.incoming.window).toBe(WIDE_WINDOW)
    expect(granted).toEqual([WIDE_WINDOW - 2 * 1024 * 1024])
    for (let i = 0; i < 7; i++) receive(32 * 1024)
    expect(granted).toHaveLength(1)
    receive(32 * 1024)
    expect(granted.at(-1)).toBe(TOP_UP_AFTER)
    expect(channel.incoming.window).toBe(WIDE_WINDOW)
    expect(pushed).toHaveLength(8)
  })

  it('widens a tunnel channel too, and grants nothing while its reader pushes back', () => {
    const reader = { full: false }
    const { channel, granted, receive } = fakeChannel('channel', reader)
    expect(widenReceiveWindow(channel)).toBe(true)
    expect(granted).toEqual([WIDE_WINDOW - 2 * 1024 * 1024])
    reader.full = true
    for (let i = 0; i < 64; i++) receive(32 * 1024)
    expect(granted).toHaveLength(1)
    expect(channel.incoming.window).toBe(WIDE_WINDOW - 64 * 32 * 1024)
    reader.full = false
    receive(32 * 1024)
    expect(granted.at(-1)).toBe(65 * 32 * 1024)
    expect(channel.incoming.window).toBe(WIDE_WINDOW)
  })

  it('leaves a channel alone when ssh2’s fields are not as expected', () => {
    expect(widenReceiveWindow({})).toBe(false)
  })
})
