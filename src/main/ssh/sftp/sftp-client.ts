/**
 * ssh2's SFTP as promises, and the two things it lacks for large files: a writer and a reader
 * that keep many requests in flight (ssh2's own `write` of a large buffer waits for each piece
 * before sending the next; its streams read one request at a time). Requests are as large as the
 * server allows (OpenSSH announces 255 KiB through limits@openssh.com), at most MAX_REQUESTS and
 * MAX_IN_FLIGHT bytes outstanding (writes: about the channel's window, see writeAhead), so a
 * gigabyte streams at the link's speed, not its round trip.
 */
import type { FileEntryWithStats, SFTPWrapper, Stats } from 'ssh2'
import { lowest } from '../../../shared/extremes'

export const MAX_REQUESTS = 64
export const MAX_IN_FLIGHT = 16 * 1024 * 1024
/** Writes in flight when the channel's window is smaller or unknown: sshd's own window. */
export const MIN_WRITE_AHEAD = 2 * 1024 * 1024
/** Request size when the server does not say (the SFTP draft's safe 32 KiB). */
const DEFAULT_REQUEST = 32 * 1024

/** ssh2 learns the server's limits at start; the fields are not in its typings. */
function requestSize(sftp: SFTPWrapper, which: '_maxReadLen' | '_maxWriteLen'): number {
  const value = (sftp as unknown as Record<string, unknown>)[which]
  return typeof value === 'number' && value > 0 ? value : DEFAULT_REQUEST
}

/**
 * Bytes of writes to keep in flight: as much as the channel's window lets go at once (sshd offers
 * 2 MiB), never under MIN_WRITE_AHEAD nor over MAX_IN_FLIGHT. Requests beyond the window cannot
 * leave sooner: ssh2 would hold them as packets already built, up to 16 MiB per upload for
 * nothing (bench/sftp-throughput.ts measures the same speed at 2 MiB ahead as at 16).
 */
export function writeAhead(sftp: SFTPWrapper): number {
  const window = (sftp as unknown as { outgoing?: { window?: unknown } }).outgoing?.window
  const known = typeof window === 'number' && window > 0 ? window : 0
  return Math.min(MAX_IN_FLIGHT, Math.max(MIN_WRITE_AHEAD, known))
}

function call<T>(run: (done: (error: Error | undefined | null, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))))
}

export class SftpClient {
  constructor(readonly sftp: SFTPWrapper) {}

  realpath(path: string): Promise<string> {
    return call((done) => this.sftp.realpath(path, done))
  }
  opendir(path: string): Promise<Buffer> {
    return call((done) => this.sftp.opendir(path, done))
  }
  /**
   * One page of an open folder's entries (one READDIR: bounded by the SFTP packet size, 256
   * KiB), without `.` and `..`; undefined at its end. Whole folders: listing.ts, with bounds.
   */
  readdirPage(handle: Buffer): Promise<FileEntryWithStats[] | undefined> {
    return new Promise((resolve, reject) =>
      this.sftp.readdir(handle, (error: Error | undefined, list: FileEntryWithStats[]) => {
        if (!error) resolve(list)
        else if ((error as { code?: unknown }).code === END_OF_FILE) resolve(undefined)
        else reject(error)
      })
    )
  }
  lstat(path: string): Promise<Stats> {
    return call((done) => this.sftp.lstat(path, done))
  }
  stat(path: string): Promise<Stats> {
    return call((done) => this.sftp.stat(path, done))
  }
  /** undefined when nothing is there. */
  async exists(path: string): Promise<Stats | undefined> {
    try {
      return await this.lstat(path)
    } catch (error) {
      if ((error as { code?: number }).code === NO_SUCH_FILE) return undefined
      throw error
    }
  }
  mkdir(path: string): Promise<void> {
    return call((done) => this.sftp.mkdir(path, done))
  }
  rmdir(path: string): Promise<void> {
    return call((done) => this.sftp.rmdir(path, done))
  }
  unlink(path: string): Promise<void> {
    return call((done) => this.sftp.unlink(path, done))
  }
  rename(from: string, to: string): Promise<void> {
    return call((done) => this.sftp.rename(from, to, done))
  }
  /** Replaces `to` if it exists, in one step where the server can (OpenSSH's posix-rename). */
  async replace(from: string, to: string): Promise<void> {
    try {
      await call<void>((done) => this.sftp.ext_openssh_rename(from, to, done))
      return
    } catch (error) {
      if (!/not supported/i.test((error as Error).message)) throw error
    }
    if (await this.exists(to)) await this.unlink(to)
    await this.rename(from, to)
  }
  /** `r+`: to write into an existing file without truncating it (another lane's, a resumed one). */
  open(path: string, flags: 'r' | 'r+' | 'wx' | 'w', mode = 0o644): Promise<Buffer> {
    return call((done) => this.sftp.open(path, flags, { mode }, done))
  }
  close(handle: Buffer): Promise<void> {
    return call((done) => this.sftp.close(handle, done))
  }
  /** Free bytes on the filesystem holding `path`, when the server can say (statvfs@openssh.com). */
  async freeBytes(path: string): Promise<number | undefined> {
    try {
      // ssh2 names the fields as statvfs(3) does.
      const info = await call<{ f_bavail: number | bigint; f_frsize: number | bigint }>((done) => this.sftp.ext_openssh_statvfs(path, done))
      const free = Number(info.f_bavail) * Number(info.f_frsize)
      return Number.isFinite(free) ? free : undefined
    } catch {
      return undefined
    }
  }
  end(): void {
    this.sftp.end()
  }
}

export const END_OF_FILE = 1
export const NO_SUCH_FILE = 2
export const PERMISSION_DENIED = 3
export const FAILURE = 4

/**
 * One SFTP channel and a handle of the file open on it. A large file moves over several (lanes.ts):
 * each channel has its own SSH window, and a far link carries one window per round trip.
 */
export interface Lane {
  sftp: SFTPWrapper
  handle: Buffer
}

/** A piece of a file to write: its bytes (a view, never copied) and where they go. */
export interface Piece {
  data: Buffer
  position: number
}

interface LaneLoad {
  lane: Lane
  requests: number
  bytes: number
  /** Bytes this lane may have in flight (its channel's window, see writeAhead). */
  ahead: number
}

/**
 * Writes a file's bytes with many WRITE requests outstanding, spread over its lanes (each piece to
 * the least loaded one). `push` queues bytes at a position (views of them, not copies: the caller
 * hands them over and must not change them) and returns; `written` counts the bytes the server
 * confirmed. The first error stops everything: `failed` holds it and `finish` rejects with it.
 * After a connection loss, `unconfirmed()` answers every piece not known to be written, for a
 * writer on the new connection to write again (writing the same bytes twice is harmless).
 */
export class PipelinedWriter {
  written = 0
  failed: Error | undefined
  private position = 0
  private accepted = 0
  private abandoned = false
  private readonly queue: Piece[] = []
  private readonly inFlight = new Set<Piece>()
  private readonly loads: LaneLoad[]
  private readonly maxRequest: number
  private idle: (() => void) | undefined

  constructor(
    lanes: readonly Lane[],
    /** Told after each confirmed request, with the total confirmed. */
    private readonly onWritten: (written: number) => void = () => {},
    /** Told once, at the first error. */
    private readonly onFailed: (error: Error) => void = () => {}
  ) {
    if (lanes.length === 0) throw new Error('a writer needs a lane')
    this.loads = lanes.map((lane) => ({ lane, requests: 0, bytes: 0, ahead: writeAhead(lane.sftp) }))
    this.maxRequest = lowest(lanes.map((lane) => requestSize(lane.sftp, '_maxWriteLen'))) ?? DEFAULT_REQUEST
  }

  /** Bytes queued or in flight, not yet confirmed (callers keep this under their window). */
  get pending(): number {
    return this.accepted - this.written
  }

  /** Queues `data` at `position` (default: right after the last bytes pushed). */
  push(data: Uint8Array, position = this.position): void {
    // Queued even after a failure: unconfirmed() must hand it on to the next connection's writer.
    for (let offset = 0; offset < data.length; offset += this.maxRequest) {
      const end = Math.min(data.length, offset + this.maxRequest)
      const piece = Buffer.from(data.buffer, data.byteOffset + offset, end - offset)
      this.queue.push({ data: piece, position: position + offset })
    }
    this.accepted += data.length
    this.position = Math.max(this.position, position + data.length)
    this.pump()
  }

  /** Stops with `error` now (the connection went): nothing more is sent, answers still due are ignored. */
  interrupt(error: Error): void {
    this.abandoned = true
    this.fail(error)
    this.settleIfIdle()
  }

  /** Every piece pushed and not confirmed (in flight or queued), in file order. */
  unconfirmed(): Piece[] {
    return [...this.inFlight, ...this.queue].sort((a, b) => a.position - b.position)
  }

  /** Resolves once every queued byte is confirmed; rejects with the first error. */
  finish(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed)
    if (this.inFlight.size === 0 && this.queue.length === 0) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.idle = () => (this.failed ? reject(this.failed) : resolve())
    })
  }

  private fail(error: Error): void {
    if (this.failed) return
    this.failed = error
    this.onFailed(error)
  }

  private settleIfIdle(): void {
    const answersDue = this.loads.some((load) => load.requests > 0)
    if ((this.failed && (this.abandoned || !answersDue)) || (!answersDue && this.queue.length === 0)) {
      const idle = this.idle
      this.idle = undefined
      idle?.()
    }
  }

  private pump(): void {
    // Many requests at once: one writev for all their packets instead of a syscall each. The
    // lanes are channels of one connection, so one socket.
    const socket = (this.loads[0]!.lane.sftp as unknown as { _client?: { _sock?: { cork?(): void; uncork?(): void } } })._client?._sock
    socket?.cork?.()
    try {
      this.pumpUncorked()
    } finally {
      socket?.uncork?.()
    }
  }

  /** The lane with room for another request and the fewest bytes in flight. */
  private freeLane(): LaneLoad | undefined {
    let best: LaneLoad | undefined
    for (const load of this.loads) {
      if (load.requests >= MAX_REQUESTS || load.bytes >= load.ahead) continue
      if (!best || load.bytes < best.bytes) best = load
    }
    return best
  }

  private pumpUncorked(): void {
    for (let load = this.freeLane(); !this.failed && this.queue.length > 0 && load; load = this.freeLane()) {
      const piece = this.queue.shift()!
      const { data, position } = piece
      const lane = load
      lane.requests++
      lane.bytes += data.length
      this.inFlight.add(piece)
      lane.lane.sftp.write(lane.lane.handle, data, 0, data.length, position, (error) => {
        if (this.abandoned) return
        lane.requests--
        lane.bytes -= data.length
        if (error) this.fail(error)
        else {
          this.inFlight.delete(piece)
          this.written += data.length
          this.onWritten(this.written)
        }
        this.pump()
        this.settleIfIdle()
      })
    }
  }
}

/**
 * Reads `size` bytes of a file from `start` with many READ requests outstanding, spread over its
 * lanes, and hands them on in order. `allowance()` says how far (in bytes from the start of the
 * file) the consumer can take now; `more()` is called again when it grows. A short read asks
 * again for the rest; a file that ends early is an error (it changed while being read). After a
 * connection loss, a reader on the new connection starts at this one's `delivered`.
 */
export class PipelinedReader {
  delivered: number
  private next: number
  private stopped = false
  private readonly done = new Map<number, Buffer>()
  private readonly loads: { lane: Lane; requests: number; bytes: number }[]
  private readonly maxRequest: number
  private settle: { resolve: () => void; reject: (error: Error) => void } | undefined
  readonly finished: Promise<void>

  constructor(
    lanes: readonly Lane[],
    private readonly size: number,
    private readonly allowance: () => number,
    private readonly deliver: (offset: number, data: Buffer) => void,
    start = 0
  ) {
    if (lanes.length === 0) throw new Error('a reader needs a lane')
    this.delivered = start
    this.next = start
    this.loads = lanes.map((lane) => ({ lane, requests: 0, bytes: 0 }))
    this.maxRequest = lowest(lanes.map((lane) => requestSize(lane.sftp, '_maxReadLen'))) ?? DEFAULT_REQUEST
    this.finished = new Promise((resolve, reject) => (this.settle = { resolve, reject }))
    // A caller that stops the reader handles the rejection; one nobody awaits must not crash main.
    this.finished.catch(() => undefined)
    if (start >= size) this.settle?.resolve()
    else this.more()
  }

  /** Issues what the allowance and the limits permit now. */
  more(): void {
    const limit = Math.min(this.size, this.allowance())
    while (!this.stopped && this.next < limit && this.next - this.delivered < MAX_IN_FLIGHT) {
      const load = this.loads.reduce<(typeof this.loads)[number] | undefined>(
        (best, each) => (each.requests < MAX_REQUESTS && (!best || each.bytes < best.bytes) ? each : best),
        undefined
      )
      if (!load) break
      const position = this.next
      const length = Math.min(this.maxRequest, this.size - position)
      this.next += length
      this.read(load, position, length)
    }
  }

  /** Stops reading; `finished` rejects with `error` (the caller asked, so it knows why). */
  stop(error = new Error('stopped')): void {
    if (this.stopped) return
    this.stopped = true
    this.settle?.reject(error)
  }

  private read(load: (typeof this.loads)[number], position: number, length: number): void {
    load.requests++
    load.bytes += length
    load.lane.sftp.read(load.lane.handle, Buffer.allocUnsafe(length), 0, length, position, (error, bytesRead, buffer) => {
      load.requests--
      load.bytes -= length
      if (this.stopped) return
      if (error) return this.stop(error)
      if (bytesRead === 0) return this.stop(new Error('the file got shorter while it was being read'))
      this.done.set(position, buffer.subarray(0, bytesRead))
      // A short read: the rest of this range is asked for again.
      if (bytesRead < length) this.read(load, position + bytesRead, length - bytesRead)
      this.flush()
      this.more()
    })
  }

  private flush(): void {
    for (let piece = this.done.get(this.delivered); piece !== undefined; piece = this.done.get(this.delivered)) {
      this.done.delete(this.delivered)
      const offset = this.delivered
      this.delivered += piece.length
      this.deliver(offset, piece)
    }
    if (this.delivered === this.size) {
      this.stopped = true
      this.settle?.resolve()
    }
  }
}
