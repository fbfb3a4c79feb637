/**
 * Lanes: one large file moved over several SFTP channels of the same connection at once, as
 * rclone and lftp do. One SSH channel carries at most its window per round trip (sshd grants
 * 2 MiB: about 40 MB/s at 50 ms, 14 MB/s at 150 ms), whatever the CPU; each extra channel brings
 * its own window (and its own sftp-server process on the instance). How many is decided by the
 * round trip the files session measured: none extra on a near link, where one channel already
 * runs at the CPU's speed and more would only cost channel opens.
 *
 * A transfer reaches its session through a TransferLink: the SFTP now, more channels, and the
 * next connection after a drop (the transfer then resumes from what the destination holds).
 */
import type { Lane, SftpClient } from './sftp-client'

/** The most channels one file uses (OpenSSH's sshd allows 10 sessions per connection, terminals included). */
export const MAX_LANES = 4
/** Smaller files move on one channel: a lane costs a channel open and a file open (round trips) first. */
export const LANE_MIN_BYTES = 8 * 1024 * 1024
/** What a channel carries per round trip: sshd's window (OpenSSH's default, 2 MiB). */
const CHANNEL_WINDOW = 2 * 1024 * 1024
/** The rate lanes are added for (bytes/s): beyond it, the CPU rather than the window is the limit. */
const LANE_TARGET_RATE = 160e6

/** How many channels a file of `size` bytes moves over on a link with this round trip. */
export function lanesFor(roundTripMs: number | undefined, size: number): number {
  if (size < LANE_MIN_BYTES || roundTripMs === undefined || !(roundTripMs > 0)) return 1
  const needed = Math.ceil(((roundTripMs / 1000) * LANE_TARGET_RATE) / CHANNEL_WINDOW)
  return Math.max(1, Math.min(MAX_LANES, needed))
}

/** A transfer's view of its files session. */
export interface TransferLink {
  /** The session's SFTP now; throws (in the user's words) while it is not connected. */
  sftp(): SftpClient
  /** The round trip the session measured on this connection (ms). */
  roundTripMs(): number | undefined
  /** Up to `count` more SFTP channels on this connection (fewer if the server refuses some); the caller ends them. */
  openChannels(count: number): Promise<SftpClient[]>
  /** Resolves once the session has an SFTP other than `dead` (a new connection's); rejects when it gives up (in words). */
  reconnected(dead: SftpClient): Promise<void>
}

/** A file open on one or more channels; `close` closes every handle and ends the extra channels. */
export class FileLanes {
  private constructor(
    readonly lanes: Lane[],
    private readonly clients: SftpClient[],
    private readonly extra: SftpClient[]
  ) {}

  /**
   * `first` (the file as the session's own channel opened it), plus the same file opened with
   * `flags` on the extra channels that a file of `size` calls for on this link. A lane that cannot
   * be opened is done without: the transfer still runs, on fewer.
   */
  static async open(link: TransferLink, path: string, flags: 'r' | 'r+', size: number, first: Lane): Promise<FileLanes> {
    const wanted = lanesFor(link.roundTripMs(), size) - 1
    const extra = wanted > 0 ? await link.openChannels(wanted) : []
    const lanes: Lane[] = [first]
    const clients = [link.sftp()]
    const kept: SftpClient[] = []
    await Promise.all(
      extra.map(async (client) => {
        const handle = await client.open(path, flags).catch(() => undefined)
        if (!handle) return client.end()
        lanes.push({ sftp: client.sftp, handle })
        clients.push(client)
        kept.push(client)
      })
    )
    return new FileLanes(lanes, clients, kept)
  }

  /** Closes the file on every lane (all writes are on the instance's disk after), then ends the extra channels. */
  async close(): Promise<void> {
    try {
      await Promise.all(this.lanes.map((lane, index) => this.clients[index]!.close(lane.handle)))
    } finally {
      this.end()
    }
  }

  /** Ends the extra channels without waiting (the connection went, or the transfer stopped). */
  end(): void {
    for (const client of this.extra) client.end()
  }
}
