import type { SFTPWrapper } from 'ssh2'
import { describe, expect, it } from 'vitest'
import { SFTP_WINDOW, TOP_UP_AFTER, widenSftpWindow } from './sftp-window'

/** What ssh2's client does per CHANNEL_DATA: count the packet against the window, then push it. */
function fakeChannel() {
  const granted: number[] = []
  const pushed: number[] = []
  const channel = {
    incoming: { window: 2 * 1024 * 1024 },
    outgoing: { id: 7 },
    _protocol: { channelWindowAdjust: (recipient: number, amount: number) => granted.push(recipient === 7 ? amount : -1) },
    push: (data: Buffer | null) => void pushed.push(data?.length ?? -1)
  }
  const receive = (bytes: number): void => {
    channel.incoming.window -= bytes
    channel.push(Buffer.alloc(bytes))
  }
  return { channel, granted, pushed, receive }
}

describe('widenSftpWindow', () => {
  it('grants up to SFTP_WINDOW at once, then tops up every TOP_UP_AFTER received', () => {
    const { channel, granted, pushed, receive } = fakeChannel()
    expect(widenSftpWindow(channel as unknown as SFTPWrapper)).toBe(true)
    expect(channel.incoming.window).toBe(SFTP_WINDOW)
    expect(granted).toEqual([SFTP_WINDOW - 2 * 1024 * 1024])
    for (let i = 0; i < 7; i++) receive(32 * 1024)
    expect(granted).toHaveLength(1)
    receive(32 * 1024)
    expect(granted.at(-1)).toBe(TOP_UP_AFTER)
    expect(channel.incoming.window).toBe(SFTP_WINDOW)
    expect(pushed).toHaveLength(8)
  })

  it('leaves a channel alone when ssh2’s fields are not as expected', () => {
    expect(widenSftpWindow({} as SFTPWrapper)).toBe(false)
  })
})
