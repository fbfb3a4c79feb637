/**
 * A Sandbox instance's files as on a real instance (#24): its home, a folder of the emulator's own
 * on this computer, is shown as `/root` (or `/home/<user>`), and SFTP cannot leave it.
 *
 * OpenSSH's sftp-server still does the work, on the real folder; this sits between the channel
 * and it and reads the SFTP packets (draft-ietf-secsh-filexfer-02, as OpenSSH speaks it). Every
 * path a request names is taken relative to the shown home and refused with
 * SSH_FX_PERMISSION_DENIED when it names anything outside: by `..`, by an absolute path, or
 * through a symlink that leads out (checked on the real folder: a request that follows links is
 * checked where the link leads; one that acts on a link itself, where the link is). Otherwise
 * sftp-server gets the real path. The paths it answers (realpath, readlink, expand-path) are shown
 * under the home again. Bulk packets (read, write, data, readdir) stream through untouched.
 *
 * Paths are bytes on the wire; they are handled as latin1 strings here so any name round-trips
 * exactly ('/' and '.' are the same byte either way).
 */
import { lstatSync, realpathSync } from 'node:fs'
import { posix, sep } from 'node:path'
import { Transform, type TransformCallback } from 'node:stream'

/** Where a real instance has its user's home: `/root` for root, `/home/<name>` otherwise. */
export function shownHome(username: string): string {
  return username === 'root' ? '/root' : `/home/${username}`
}

// Packet types (filexfer-02) and the one status code this answers itself.
const INIT = 1
const VERSION = 2
const OPEN = 3
const LSTAT = 7
const SETSTAT = 9
const OPENDIR = 11
const REMOVE = 13
const MKDIR = 14
const RMDIR = 15
const REALPATH = 16
const STAT = 17
const RENAME = 18
const READLINK = 19
const SYMLINK = 20
const EXTENDED = 200
const STATUS = 101
const NAME = 104
const PERMISSION_DENIED = 3
const OP_UNSUPPORTED = 8

/** Length, type and request id: what decides whether a packet streams through or is read whole. */
const HEADER = 9
/** A request that names paths is small; anything larger is not one this reads whole. */
const MAX_WHOLE = 256 * 1024

/**
 * How each path of a request is used: followed where it leads, acted on as it is (a link
 * itself), or stored as a new link's target.
 */
type Use = 'follow' | 'itself' | 'target'
const PATH_REQUESTS: ReadonlyMap<number, readonly Use[]> = new Map([
  [OPEN, ['follow']],
  [LSTAT, ['itself']],
  [SETSTAT, ['follow']],
  [OPENDIR, ['follow']],
  [REMOVE, ['itself']],
  [MKDIR, ['itself']],
  [RMDIR, ['itself']],
  [REALPATH, ['follow']],
  [STAT, ['follow']],
  [RENAME, ['itself', 'itself']],
  [READLINK, ['itself']],
  // OpenSSH's order: the link's target first, then where the link goes.
  [SYMLINK, ['target', 'itself']]
])
const PATH_EXTENSIONS: ReadonlyMap<string, readonly Use[]> = new Map([
  ['posix-rename@openssh.com', ['itself', 'itself']],
  ['hardlink@openssh.com', ['follow', 'itself']],
  ['statvfs@openssh.com', ['follow']],
  ['lsetstat@openssh.com', ['itself']],
  ['expand-path@openssh.com', ['follow']]
])
/** Extensions that name no path (handles, limits, ids): passed through. */
const PATHLESS_EXTENSIONS = new Set([
  'fstatvfs@openssh.com',
  'fsync@openssh.com',
  'limits@openssh.com',
  'copy-data',
  'users-groups-by-id@openssh.com'
])
/** Requests whose NAME answer carries a path of the real folder. */
const ANSWERS_A_PATH = new Set([REALPATH, READLINK])

export interface SftpJail {
  /** Between the channel and sftp-server's stdin. */
  toServer: Transform
  /** Between sftp-server's stdout and the channel. */
  toClient: Transform
}

/** `home`: the real folder; `username`: the instance's login (the home is shown as shownHome). */
export function sftpJail(home: string, username: string): SftpJail {
  const shown = shownHome(username)
  const real = latin1(realpathSync(home))
  /** Request ids whose NAME answer is a path to show under the home again. */
  const answersAPath = new Set<number>()
  const toClient = new PacketTransform(
    (type, id) => answersAPath.delete(id) && type === NAME,
    (packet) => showPaths(packet, real, shown)
  )
  const toServer = new PacketTransform(
    (type) => PATH_REQUESTS.has(type) || type === EXTENDED,
    (packet) => {
      const checked = confineRequest(packet, real, shown)
      if ('refused' in checked) {
        toClient.inject(checked.refused)
        return undefined
      }
      const type = packet[4]!
      const extension = type === EXTENDED ? new Reader(packet, HEADER).string().toString('latin1') : ''
      if (ANSWERS_A_PATH.has(type) || extension === 'expand-path@openssh.com') answersAPath.add(packet.readUInt32BE(5))
      return checked.packet
    }
  )
  return { toServer, toClient }
}

// ---------------------------------------------------------------- requests

function confineRequest(packet: Buffer, real: string, shown: string): { packet: Buffer } | { refused: Buffer } {
  const type = packet[4]!
  const id = packet.readUInt32BE(5)
  const reader = new Reader(packet, HEADER)
  const parts: Buffer[] = [packet.subarray(4, HEADER)]
  let uses = PATH_REQUESTS.get(type)
  if (type === EXTENDED) {
    const name = reader.string()
    parts.push(lengthPrefixed(name))
    const extension = name.toString('latin1')
    uses = PATH_EXTENSIONS.get(extension)
    if (!uses) {
      if (PATHLESS_EXTENSIONS.has(extension)) return { packet }
      return { refused: status(id, OP_UNSUPPORTED, `${extension} is not offered here.`) }
    }
  }
  try {
    for (const use of uses ?? []) {
      const path = reader.string().toString('latin1')
      const mapped = use === 'target' ? linkTarget(path, real, shown) : confine(path, use, real, shown)
      if (mapped === undefined)
        return { refused: status(id, PERMISSION_DENIED, `Permission denied: only ${shown} and what is in it can be reached.`) }
      parts.push(lengthPrefixed(Buffer.from(mapped, 'latin1')))
    }
  } catch {
    return { refused: status(id, PERMISSION_DENIED, 'Permission denied: the request could not be read.') }
  }
  parts.push(reader.rest())
  const body = Buffer.concat(parts)
  return { packet: Buffer.concat([u32(body.length), body]) }
}

/**
 * The real path for `path` as the client named it (relative to the shown home, or absolute),
 * or undefined when it leads outside the home, lexically or through a link.
 */
function confine(path: string, use: 'follow' | 'itself', real: string, shown: string): string | undefined {
  if (path.includes('\0')) return undefined
  const named = posix.resolve(shown, path)
  if (named !== shown && !named.startsWith(`${shown}/`)) return undefined
  const inside = named.slice(shown.length).split('/').filter(Boolean)
  const target = [real, ...inside].join(sep)
  if (inside.length === 0) return target
  if (use === 'follow') {
    const where = realpathOf(target)
    if (where !== undefined) return within(where, real) ? target : undefined
    // Not there (yet): a link that leads nowhere may not be followed out by a create, and the
    // folder it would be made in must be inside.
    if (isLink(target)) return undefined
  }
  // The folder it is in, or the nearest one that exists (sftp-server then says "no such file").
  for (let depth = inside.length - 1; depth >= 0; depth--) {
    const folder = realpathOf([real, ...inside.slice(0, depth)].join(sep))
    if (folder !== undefined) return within(folder, real) ? target : undefined
  }
  return undefined
}

/** A symlink's target: an absolute one is under the shown home, mapped to the real folder. */
function linkTarget(path: string, real: string, shown: string): string | undefined {
  if (path.includes('\0')) return undefined
  if (!path.startsWith('/')) return path
  const named = posix.normalize(path)
  if (named !== shown && !named.startsWith(`${shown}/`)) return undefined
  return [real, ...named.slice(shown.length).split('/').filter(Boolean)].join(sep)
}

function realpathOf(path: string): string | undefined {
  try {
    return realpathSync(Buffer.from(path, 'latin1'), { encoding: 'buffer' }).toString('latin1')
  } catch {
    return undefined
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(Buffer.from(path, 'latin1')).isSymbolicLink()
  } catch {
    return false
  }
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`)
}

// ---------------------------------------------------------------- answers

/** A NAME answer to realpath / readlink / expand-path: the real folder shown as the home. */
function showPaths(packet: Buffer, real: string, shown: string): Buffer {
  try {
    const reader = new Reader(packet, HEADER)
    const count = reader.u32()
    if (count < 1) return packet
    const filename = reader.string().toString('latin1')
    const longname = reader.string().toString('latin1')
    const shownPath = (path: string): string =>
      within(path, real) ? posix.join(shown, ...path.slice(real.length).split(sep).filter(Boolean)) : path
    const body = Buffer.concat([
      packet.subarray(4, HEADER),
      u32(count),
      lengthPrefixed(Buffer.from(shownPath(filename), 'latin1')),
      lengthPrefixed(Buffer.from(longname === filename ? shownPath(filename) : longname, 'latin1')),
      reader.rest()
    ])
    return Buffer.concat([u32(body.length), body])
  } catch {
    return packet
  }
}

function status(id: number, code: number, message: string): Buffer {
  const body = Buffer.concat([
    Buffer.from([STATUS]),
    u32(id),
    u32(code),
    lengthPrefixed(Buffer.from(message)),
    lengthPrefixed(Buffer.alloc(0))
  ])
  return Buffer.concat([u32(body.length), body])
}

// ---------------------------------------------------------------- framing

const EMPTY = Buffer.alloc(0)

/**
 * SFTP packets through a stream: those `whole` picks are collected and handed to `rewrite` (which
 * answers the packet to send on, or undefined to drop it); every other packet streams through as
 * its bytes arrive, never copied. `inject` sends a packet of this side's own between packets.
 */
class PacketTransform extends Transform {
  private held: Buffer = EMPTY
  private passLeft = 0
  private wholeLength = 0
  private readonly injected: Buffer[] = []

  constructor(
    private readonly whole: (type: number, id: number) => boolean,
    private readonly rewrite: (packet: Buffer) => Buffer | undefined
  ) {
    super()
  }

  inject(packet: Buffer): void {
    if (this.atBoundary()) this.push(packet)
    else this.injected.push(packet)
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.frame(chunk)
      done()
    } catch (error) {
      done(error as Error)
    }
  }

  private frame(chunk: Buffer): void {
    let rest = chunk
    while (rest.length > 0) {
      if (this.passLeft > 0) {
        const n = Math.min(this.passLeft, rest.length)
        this.push(rest.subarray(0, n))
        this.passLeft -= n
        rest = rest.subarray(n)
        if (this.passLeft === 0) this.flushInjected()
        continue
      }
      const need = this.wholeLength > 0 ? this.wholeLength : HEADER
      const n = Math.min(need - this.held.length, rest.length)
      this.held = Buffer.concat([this.held, rest.subarray(0, n)])
      rest = rest.subarray(n)
      if (this.held.length < need) return
      if (this.wholeLength === 0) {
        const total = 4 + this.held.readUInt32BE(0)
        if (total < HEADER) throw new Error('SFTP: a packet too short to be one')
        if (this.held[4] !== INIT && this.held[4] !== VERSION && this.whole(this.held[4]!, this.held.readUInt32BE(5))) {
          if (total > MAX_WHOLE) throw new Error('SFTP: a request too long to be one that names paths')
          this.wholeLength = total
          if (total > HEADER) continue
        } else {
          this.push(this.held)
          this.held = EMPTY
          this.passLeft = total - HEADER
          if (this.passLeft === 0) this.flushInjected()
          continue
        }
      }
      const packet = this.held
      this.held = EMPTY
      this.wholeLength = 0
      const out = this.rewrite(packet)
      if (out) this.push(out)
      this.flushInjected()
    }
  }

  private atBoundary(): boolean {
    return this.passLeft === 0 && this.held.length === 0 && this.wholeLength === 0
  }

  private flushInjected(): void {
    for (const packet of this.injected.splice(0)) this.push(packet)
  }
}

class Reader {
  constructor(
    private readonly buffer: Buffer,
    private offset: number
  ) {}

  u32(): number {
    const value = this.buffer.readUInt32BE(this.offset)
    this.offset += 4
    return value
  }

  string(): Buffer {
    const length = this.u32()
    if (this.offset + length > this.buffer.length) throw new RangeError('SFTP: a string past the end of its packet')
    const value = this.buffer.subarray(this.offset, this.offset + length)
    this.offset += length
    return value
  }

  rest(): Buffer {
    return this.buffer.subarray(this.offset)
  }
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4)
  buffer.writeUInt32BE(value >>> 0)
  return buffer
}

function lengthPrefixed(bytes: Buffer): Buffer {
  return Buffer.concat([u32(bytes.length), bytes])
}

function latin1(path: string): string {
  return Buffer.from(path).toString('latin1')
}
