import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import {
  MIN_PACED_WINDOW,
  MIN_WINDOW,
  SSH2_WINDOW,
  enforceReceiveLimit,
  limitReceiveWindow,
  paceReceiveWindow,
  pacedReceiveWindowFor,
  receiveWindowFor
} from './receive-window'
import { lowest } from '../../../shared/extremes'

describe('receiveWindowFor', () => {
  it.each([
    [undefined, SSH2_WINDOW],
    [Number.NaN, SSH2_WINDOW],
    [-1, SSH2_WINDOW],
    [0, MIN_WINDOW],
    [0.3, MIN_WINDOW],
    [5, MIN_WINDOW],
    [20, 480_000],
    [50, 1_200_000],
    [100, SSH2_WINDOW],
    [300, SSH2_WINDOW]
  ])('a %s ms round trip gets a %i byte window', (roundTripMs, expected) => {
    expect(receiveWindowFor(roundTripMs)).toBe(expected)
  })
})

describe('pacedReceiveWindowFor', () => {
  // Parse speeds in bytes per ms: `yes` ~2,500; plain 58-character lines ~40,000.
  it.each([
    [0.3, undefined, MIN_WINDOW],
    [0.3, 2_500, MIN_PACED_WINDOW],
    [0.3, 40_000, MIN_WINDOW],
    [20, 2_500, 100_000],
    [20, 40_000, 480_000],
    // Far links: never less than what xterm parses in two round trips, so the link still carries it.
    [150, 2_500, 750_000],
    [150, 40_000, SSH2_WINDOW],
    [undefined, 2_500, SSH2_WINDOW]
  ])('a %s ms round trip at %s bytes/ms of parsing gets a %i byte window', (roundTripMs, parseSpeed, expected) => {
    expect(pacedReceiveWindowFor(roundTripMs, parseSpeed)).toBe(expected)
  })
})

/**
 * A stand-in with the shape of ssh2's client channel that receive-window.ts relies on, and the
 * same top-up rule as ssh2's Channel.js `windowAdjust` (called when ≤ 1 MiB is left).
 */
class FakeSsh2Channel extends EventEmitter {
  readonly incoming = { window: SSH2_WINDOW }
  readonly outgoing: { id: number }
  readonly _client: { _protocol: { channelWindowAdjust: (recipient: number, amount: number) => void } }

  constructor(id: number, protocol: { channelWindowAdjust: (recipient: number, amount: number) => void }) {
    super()
    this.outgoing = { id }
    this._client = { _protocol: protocol }
  }

  /** The server sent `bytes`; ssh2 counts them and tops the window up below its threshold. */
  receive(bytes: number): void {
    this.incoming.window -= bytes
    if (this.incoming.window <= SSH2_WINDOW / 2) {
      const amount = SSH2_WINDOW - this.incoming.window
      this.incoming.window += amount
      this._client._protocol.channelWindowAdjust(this.outgoing.id, amount)
    }
  }
}

function serverSide(): { protocol: { channelWindowAdjust: (recipient: number, amount: number) => void }; granted: Map<number, number[]> } {
  const granted = new Map<number, number[]>()
  return {
    granted,
    protocol: {
      channelWindowAdjust: (recipient, amount) => granted.set(recipient, [...(granted.get(recipient) ?? []), amount])
    }
  }
}

describe('limitReceiveWindow', () => {
  /** The server sends `total` bytes as fast as its window allows; answers the most it was ever allowed past `from` bytes. */
  function flood(channel: FakeSsh2Channel, granted: Map<number, number[]>, total: number, from: number): number {
    const id = channel.outgoing.id
    let serverWindow = channel.incoming.window
    let most = 0
    for (let sent = 0; sent < total;) {
      const packet = Math.min(32 * 1024, serverWindow)
      expect(packet).toBeGreaterThan(0)
      serverWindow -= packet
      sent += packet
      const before = granted.get(id)?.length ?? 0
      channel.receive(packet)
      for (const amount of (granted.get(id) ?? []).slice(before)) serverWindow += amount
      expect(channel.incoming.window).toBe(serverWindow)
      if (sent > from) most = Math.max(most, serverWindow)
    }
    return most
  }

  it('keeps ssh2’s window while the consumer keeps up: a small one would only slow the link', () => {
    const { protocol, granted } = serverSide()
    const channel = new FakeSsh2Channel(8, protocol)
    expect(limitReceiveWindow(channel, 0)).toBe(true)
    expect(flood(channel, granted, 8 * SSH2_WINDOW, SSH2_WINDOW)).toBeGreaterThan(SSH2_WINDOW / 2)
    // The consumer fell behind: from the next grant on, the limit holds.
    enforceReceiveLimit(channel)
    expect(flood(channel, granted, 8 * SSH2_WINDOW, 2 * SSH2_WINDOW)).toBe(MIN_WINDOW)
  })

  it('once the consumer fell behind, lets the first 2 MiB be used, then grants only up to the limit, half a window at a time', () => {
    const { protocol, granted } = serverSide()
    const channel = new FakeSsh2Channel(7, protocol)
    expect(limitReceiveWindow(channel, 0)).toBe(true)
    enforceReceiveLimit(channel)

    // The server's view: what it may still send, from the grants it saw.
    let serverWindow = SSH2_WINDOW
    let most = 0
    for (let sent = 0; sent < 8 * SSH2_WINDOW;) {
      const packet = Math.min(32 * 1024, serverWindow)
      expect(packet).toBeGreaterThan(0)
      serverWindow -= packet
      sent += packet
      const before = granted.get(7)?.length ?? 0
      channel.receive(packet)
      for (const amount of (granted.get(7) ?? []).slice(before)) serverWindow += amount
      // ssh2's count and the server's always agree, so ssh2 never drops a packet as "no window".
      expect(channel.incoming.window).toBe(serverWindow)
      if (sent > SSH2_WINDOW) most = Math.max(most, serverWindow)
    }
    expect(most).toBe(MIN_WINDOW)
    expect(lowest(granted.get(7) ?? [])).toBeGreaterThanOrEqual(MIN_WINDOW / 2)
  })

  it('once paced by parse speed, holds what xterm parses in a few ms on a short link, and a round trip of it on a far one', () => {
    const { protocol, granted } = serverSide()
    const near = new FakeSsh2Channel(11, protocol)
    limitReceiveWindow(near, 0.3)
    enforceReceiveLimit(near)
    expect(flood(near, granted, 4 * SSH2_WINDOW, 2 * SSH2_WINDOW)).toBe(MIN_WINDOW)
    paceReceiveWindow(near, 2_500)
    expect(flood(near, granted, 4 * SSH2_WINDOW, SSH2_WINDOW)).toBe(MIN_PACED_WINDOW)
    // A new flood, its speed not known yet: the link's window again.
    paceReceiveWindow(near, undefined)
    expect(flood(near, granted, 4 * SSH2_WINDOW, SSH2_WINDOW)).toBe(MIN_WINDOW)

    // 150 ms away the link's window is ssh2's own; `yes` needs 750 kB of it (two round trips).
    const far = new FakeSsh2Channel(12, protocol)
    expect(limitReceiveWindow(far, 150)).toBe(true)
    enforceReceiveLimit(far)
    expect(flood(far, granted, 4 * SSH2_WINDOW, SSH2_WINDOW)).toBeGreaterThan(SSH2_WINDOW / 2)
    paceReceiveWindow(far, 2_500)
    expect(flood(far, granted, 4 * SSH2_WINDOW, 2 * SSH2_WINDOW)).toBe(750_000)
  })

  it('leaves other channels of the connection alone, and forgets a channel once it closes', () => {
    const { protocol, granted } = serverSide()
    const limited = new FakeSsh2Channel(1, protocol)
    const other = new FakeSsh2Channel(2, protocol)
    limitReceiveWindow(limited, 0)
    enforceReceiveLimit(limited)
    enforceReceiveLimit(other)
    other.receive(SSH2_WINDOW / 2 + 1)
    expect(granted.get(2)).toEqual([SSH2_WINDOW / 2 + 1])

    limited.emit('close')
    const reused = new FakeSsh2Channel(1, protocol)
    reused.receive(SSH2_WINDOW / 2 + 1)
    expect(granted.get(1)).toEqual([SSH2_WINDOW / 2 + 1])
  })

  it('changes nothing when the round trip is unknown or ssh2’s internals are not there', () => {
    const { protocol, granted } = serverSide()
    const channel = new FakeSsh2Channel(3, protocol)
    expect(limitReceiveWindow(channel, undefined)).toBe(false)
    expect(limitReceiveWindow({ incoming: { window: 5 } }, 0)).toBe(false)
    expect(limitReceiveWindow({ incoming: { window: 5 }, outgoing: { id: 1 }, _client: {} }, 0)).toBe(false)
    channel.receive(SSH2_WINDOW / 2)
    expect(granted.get(3)).toEqual([SSH2_WINDOW / 2])
  })
})
