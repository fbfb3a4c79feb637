/**
 * An append-only log file that rotates by size: `main.log` grows to `maxBytes`, then becomes
 * `main.log.1` (the older ones shift to .2, .3, … and the oldest beyond `keep` is deleted).
 * Disk use is bounded by (keep + 1) × maxBytes whatever the app does.
 *
 * Writes are synchronous on purpose: the main process logs a few lines a minute, and a line that
 * was logged just before a crash must be on disk to explain it. Files are created 0600 because
 * they describe the user's account and instances.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'

export interface RotatingFileOptions {
  dir: string
  /** Default main.log */
  fileName?: string
  /** Rotate when the current file would pass this size. Default 1 MiB. */
  maxBytes?: number
  /** Rotated files kept besides the current one. Default 5. */
  keep?: number
}

export interface RotatingFile {
  readonly path: string
  write(line: string): void
  /** Every file of this log, newest first (the current one, then .1, .2, …). */
  files(): string[]
  close(): void
}

export function openRotatingFile(options: RotatingFileOptions): RotatingFile {
  const fileName = options.fileName ?? 'main.log'
  const maxBytes = Math.max(1024, options.maxBytes ?? 1024 * 1024)
  const keep = Math.max(0, options.keep ?? 5)
  const path = join(options.dir, fileName)
  mkdirSync(options.dir, { recursive: true, mode: 0o700 })

  let fd: number | undefined
  let size = 0

  const open = (): number => {
    if (fd === undefined) {
      fd = openSync(path, 'a', 0o600)
      size = fstatSync(fd).size
    }
    return fd
  }

  const rotate = (): void => {
    if (fd !== undefined) closeSync(fd)
    fd = undefined
    rmSync(`${path}.${keep}`, { force: true })
    for (let n = keep - 1; n >= 1; n--) {
      if (existsSync(`${path}.${n}`)) renameSync(`${path}.${n}`, `${path}.${n + 1}`)
    }
    if (keep > 0) renameSync(path, `${path}.1`)
    else rmSync(path, { force: true })
  }

  let closed = false
  return {
    path,
    write(line) {
      if (closed) return
      const bytes = Buffer.from(line.endsWith('\n') ? line : `${line}\n`, 'utf8')
      open()
      // A single line longer than maxBytes still gets written, alone in its file.
      if (size > 0 && size + bytes.length > maxBytes) rotate()
      const handle = open()
      writeSync(handle, bytes)
      size += bytes.length
    },
    files() {
      const all = [path]
      for (let n = 1; n <= keep; n++) all.push(`${path}.${n}`)
      return all.filter((file) => existsSync(file))
    },
    close() {
      closed = true
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    }
  }
}
