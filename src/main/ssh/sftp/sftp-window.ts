/**
 * A wider receive window, kept topped up, for SFTP channels. ssh2 gives every channel 2 MiB and
 * grants more only once half of it is used, so a server sends 1 MiB and then waits for our
 * WINDOW_ADJUST before the next; on a busy machine, where this process is not scheduled at once,
 * those waits add up (OpenSSH's own client grants more after every few packets). Measured on the
 * 2-core CI-like machine, this roughly doubles download speed. Beyond 4 MiB, the first transfer of
 * a fresh connection was seen to stall for tens of seconds (a TCP buffer effect we did not chase),
 * so 4 MiB it is. Memory stays bounded by the pipelined reader's requests (sftp-client.ts).
 * Relies on ssh2's channel fields, like receive-window.ts.
 */
import type { SFTPWrapper } from 'ssh2'

export const SFTP_WINDOW = 4 * 1024 * 1024
/** Grant more once this much of the window is used. */
export const TOP_UP_AFTER = 256 * 1024

interface Ssh2SftpInternals {
  incoming?: { window?: unknown }
  outgoing?: { id?: unknown }
  _protocol?: { channelWindowAdjust?: (recipient: number, amount: number) => void }
  push?: (data: Buffer | null) => unknown
}

/** Widens `sftp`'s receive window to SFTP_WINDOW and keeps it there; false if ssh2's fields are not as expected. */
export function widenSftpWindow(sftp: SFTPWrapper): boolean {
  const channel = sftp as unknown as Ssh2SftpInternals
  const incoming = channel.incoming
  const recipient = channel.outgoing?.id
  const adjust = channel._protocol?.channelWindowAdjust?.bind(channel._protocol)
  const push = channel.push
  if (!incoming || typeof incoming.window !== 'number' || typeof recipient !== 'number' || !adjust || typeof push !== 'function') return false
  const window = incoming as { window: number }
  const grant = (): void => {
    const amount = SFTP_WINDOW - window.window
    if (amount < TOP_UP_AFTER) return
    window.window += amount
    adjust(recipient, amount)
  }
  // ssh2 counts each packet against the window, then pushes it: top up right after, so its own
  // (half-empty) adjust never comes.
  channel.push = (data: Buffer | null): unknown => {
    const result = push.call(sftp, data)
    if (data !== null) grant()
    return result
  }
  grant()
  return true
}
