/**
 * ssh2's SFTP as promises, and the two things it lacks for large files: a writer and a reader
 * that keep many requests in flight (ssh2's own `write` of a large buffer waits for each piece
 * before sending the next; its streams read one request at a time). Requests are as large as the
 * server allows (OpenSSH announces 255 KiB through limits@openssh.com), at most MAX_REQUESTS and
 * MAX_IN_FLIGHT bytes outstanding (writes: about the channel's window, see writeAhead), so a
 * gigabyte streams at the link's speed, not its round trip.
 */
import type { FileEntryWithStats, SFTPWrapper, Stats } from 'ssh2'

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
  open(path: string, flags: 'r' | 'wx' | 'w', mode = 0o644): Promise<Buffer> {
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
 * Writes a file's bytes at increasing offsets with many WRITE requests outstanding. `push`
 * queues bytes (views of them, not copies: the caller hands them over and must not change them)
 * and returns; `written` counts the bytes the server confirmed. The first error stops everything:
 * `failed` holds it and `finish` rejects with it.
 */
export class PipelinedWriter {
  written = 0
  failed: Error | undefined
  private position = 0
  private inFlight = 0
  private inFlightBytes = 0
  private readonly queue: { data: Buffer; position: number }[] = []
  private readonly maxRequest: number
  private readonly maxAhead: number
  private idle: (() => void) | undefined

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly handle: Buffer,
    /** Told after each confirmed request, with the total confirmed. */
    private readonly onWritten: (written: number) => void = () => {},
    /** Told once, at the first error. */
    private readonly onFailed: (error: Error) => void = () => {}
  ) {
    this.maxRequest = requestSize(sftp, '_maxWriteLen')
    this.maxAhead = writeAhead(sftp)
  }

  /** Bytes queued or in flight, not yet confirmed (callers keep this under their window). */
  get pending(): number {
    return this.position - this.written
  }

  push(data: Uint8Array): void {
    if (this.failed) return
    for (let offset = 0; offset < data.length; offset += this.maxRequest) {
      const end = Math.min(data.length, offset + this.maxRequest)
      const piece = Buffer.from(data.buffer, data.byteOffset + offset, end - offset)
      this.queue.push({ data: piece, position: this.position })
      this.position += piece.length
    }
    this.pump()
  }

  /** Resolves once every queued byte is confirmed; rejects with the first error. */
  finish(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed)
    if (this.inFlight === 0 && this.queue.length === 0) return Promise.resolve()
    return new Promise((resolve, reject) => {
      this.idle = () => (this.failed ? reject(this.failed) : resolve())
    })
  }

  private pump(): void {
    // Many requests at once: one writev for all their packets instead of a syscall each.
    const socket = (this.sftp as unknown as { _client?: { _sock?: { cork?(): void; uncork?(): void } } })._client?._sock
    socket?.cork?.()
    try {
      this.pumpUncorked()
    } finally {
      socket?.uncork?.()
    }
  }

  private pumpUncorked(): void {
    while (!this.failed && this.queue.length > 0 && this.inFlight < MAX_REQUESTS && this.inFlightBytes < this.maxAhead) {
      const { data, position } = this.queue.shift()!
      this.inFlight++
      this.inFlightBytes += data.length
      this.sftp.write(this.handle, data, 0, data.length, position, (error) => {
        this.inFlight--
        this.inFlightBytes -= data.length
        if (error && !this.failed) {
          this.failed = error
          this.onFailed(error)
        } else if (!error) {
          this.written += data.length
          this.onWritten(this.written)
        }
        this.pump()
        if ((this.failed && this.inFlight === 0) || (this.inFlight === 0 && this.queue.length === 0)) {
          const idle = this.idle
          this.idle = undefined
          idle?.()
        }
      })
    }
  }
}

/**
 * Reads `size` bytes of a file with many READ requests outstanding and hands them on in order.
 * `allowance()` says how far (in bytes from the start) the consumer can take now; `more()` is
 * called again when it grows. A short read asks again for the rest; a file that ends early is an
 * error (it changed while being read).
 */
export class PipelinedReader {
  delivered = 0
  private next = 0
  private inFlight = 0
  private stopped = false
  private readonly done = new Map<number, Buffer>()
  private readonly maxRequest: number
  private settle: { resolve: () => void; reject: (error: Error) => void } | undefined
  readonly finished: Promise<void>

  constructor(
    private readonly sftp: SFTPWrapper,
    private readonly handle: Buffer,
    private readonly size: number,
    private readonly allowance: () => number,
    private readonly deliver: (offset: number, data: Buffer) => void
  ) {
    this.maxRequest = requestSize(sftp, '_maxReadLen')
    this.finished = new Promise((resolve, reject) => (this.settle = { resolve, reject }))
    if (size === 0) this.settle?.resolve()
    else this.more()
  }

  /** Issues what the allowance and the limits permit now. */
  more(): void {
    const limit = Math.min(this.size, this.allowance())
    while (!this.stopped && this.next < limit && this.inFlight < MAX_REQUESTS && this.next - this.delivered < MAX_IN_FLIGHT) {
      const position = this.next
      const length = Math.min(this.maxRequest, this.size - position)
      this.next += length
      this.read(position, length)
    }
  }

  /** Stops reading; `finished` rejects (the caller asked, so it knows why). */
  stop(): void {
    if (this.stopped) return
    this.stopped = true
    this.settle?.reject(new Error('stopped'))
  }

  private read(position: number, length: number): void {
    this.inFlight++
    this.sftp.read(this.handle, Buffer.allocUnsafe(length), 0, length, position, (error, bytesRead, buffer) => {
      this.inFlight--
      if (this.stopped) return
      if (error) return this.fail(error)
      if (bytesRead === 0) return this.fail(new Error('the file got shorter while it was being read'))
      this.done.set(position, buffer.subarray(0, bytesRead))
      // A short read: the rest of this range is asked for again.
      if (bytesRead < length) this.read(position + bytesRead, length - bytesRead)
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

  private fail(error: Error): void {
    this.stopped = true
    this.settle?.reject(error)
  }
}
