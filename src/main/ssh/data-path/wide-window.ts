/**
 * A wider receive window, kept topped up, for bulk channels (SFTP, port tunnels). ssh2 gives
 * every channel 2 MiB and grants more only once half of it is used, so a server sends 1 MiB and
 * then waits for our WINDOW_ADJUST before the next; on a busy machine, where this process is not
 * scheduled at once, those waits add up (OpenSSH's own client grants more after every few
 * packets). Measured on the 2-core CI-like machine, this roughly doubles SFTP download speed.
 * Beyond 4 MiB, the first transfer of a fresh connection was seen to stall for tens of seconds (a
 * TCP buffer effect we did not chase), so 4 MiB it is.
 *
 * Memory stays bounded: nothing is granted while the channel's reader pushes back (`push`
 * answered false; ssh2 then grants its own 2 MiB once the reader drains), and SFTP's pipelined
 * reader bounds its requests (sftp-client.ts). Shells keep their small window (receive-window.ts:
 * a quick Ctrl-C). Relies on ssh2's channel fields, like receive-window.ts.
 */

export const WIDE_WINDOW = 4 * 1024 * 1024
/** Grant more once this much of the window is used. */
export const TOP_UP_AFTER = 256 * 1024

/** The parts of an ssh2 Channel (protocol under `_client`) or SFTPWrapper (its own `_protocol`) this uses. */
interface Ssh2ChannelInternals {
  incoming?: { window?: unknown }
  outgoing?: { id?: unknown }
  _protocol?: WindowAdjuster
  _client?: { _protocol?: WindowAdjuster }
  push?: (data: Buffer | null) => unknown
}

interface WindowAdjuster {
  channelWindowAdjust?: (recipient: number, amount: number) => void
}

/** Widens `channel`'s receive window to WIDE_WINDOW and keeps it there; false if ssh2's fields are not as expected. */
export function widenReceiveWindow(channel: object): boolean {
  const internals = channel as Ssh2ChannelInternals
  const incoming = internals.incoming
  const recipient = internals.outgoing?.id
  const protocol = internals._protocol ?? internals._client?._protocol
  const adjust = protocol?.channelWindowAdjust?.bind(protocol)
  const push = internals.push
  if (!incoming || typeof incoming.window !== 'number' || typeof recipient !== 'number' || !adjust || typeof push !== 'function')
    return false
  const window = incoming as { window: number }
  const grant = (): void => {
    const amount = WIDE_WINDOW - window.window
    if (amount < TOP_UP_AFTER) return
    window.window += amount
    adjust(recipient, amount)
  }
  // ssh2 counts each packet against the window, then pushes it: top up right after, so its own
  // (half-empty) adjust never comes.
  internals.push = (data: Buffer | null): unknown => {
    const result = push.call(channel, data)
    if (data !== null && result !== false) grant()
    return result
  }
  grant()
  return true
}
