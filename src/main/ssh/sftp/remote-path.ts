/**
 * Paths on the instance, as SFTP sees them: POSIX, absolute, built by joining checked names, never
 * parsed by a shell. A name is data: spaces, quotes, newlines, `$(…)`, a leading dash or any
 * non-ASCII character are fine; only what POSIX itself forbids in one name is refused (a slash, NUL,
 * `.` and `..`, which would name another place).
 */
import { randomBytes } from 'node:crypto'

/** Longest path accepted from a window (Linux PATH_MAX). */
export const MAX_PATH = 4096
/** Longest single name (Linux NAME_MAX is 255 bytes). */
export const MAX_NAME_BYTES = 255

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string }

/** One name inside a folder. */
export function checkName(name: string): Checked<string> {
  if (name === '') return { ok: false, problem: 'is empty' }
  if (name === '.' || name === '..') return { ok: false, problem: `“${name}” names another folder, not a file` }
  if (name.includes('/')) return { ok: false, problem: 'contains a slash, which separates folders' }
  if (name.includes('\0')) return { ok: false, problem: 'contains a NUL character' }
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) return { ok: false, problem: `is longer than ${MAX_NAME_BYTES} bytes` }
  return { ok: true, value: name }
}

/** An absolute path on the instance, as a window hands it back (it came from a listing). */
export function checkAbsolute(path: string): Checked<string> {
  if (!path.startsWith('/')) return { ok: false, problem: 'is not an absolute path' }
  if (path.includes('\0')) return { ok: false, problem: 'contains a NUL character' }
  if (path.length > MAX_PATH) return { ok: false, problem: `is longer than ${MAX_PATH} characters` }
  const segments = path.split('/').filter((segment) => segment !== '')
  if (segments.some((segment) => segment === '.' || segment === '..')) return { ok: false, problem: 'contains “.” or “..”' }
  return { ok: true, value: segments.length === 0 ? '/' : `/${segments.join('/')}` }
}

/** A path relative to an upload's folder, `/`-separated (a dropped folder's files). */
export function checkRelative(path: string): Checked<string[]> {
  const segments = path.split('/')
  for (const segment of segments) {
    const name = checkName(segment)
    if (!name.ok) return { ok: false, problem: `has a part that ${name.problem}` }
  }
  return { ok: true, value: segments }
}

export function joinRemote(folder: string, ...names: string[]): string {
  return [folder === '/' ? '' : folder, ...names].join('/') || '/'
}

export function parentOf(path: string): string {
  const at = path.lastIndexOf('/')
  return at <= 0 ? '/' : path.slice(0, at)
}

export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}

/**
 * Where an upload is written until it is complete: a hidden name beside the final one, unique,
 * and within NAME_MAX however long the final name is.
 */
export function temporaryName(name: string, random: () => string = () => randomBytes(4).toString('hex')): string {
  const suffix = `.cloudtray-${random()}.part`
  let stem = name
  while (Buffer.byteLength(`.${stem}${suffix}`, 'utf8') > MAX_NAME_BYTES) stem = Array.from(stem).slice(0, -1).join('')
  return `.${stem}${suffix}`
}

/** Whether a name is one of ours (a transfer's temporary file), so listings can say what it is. */
export function isTemporaryName(name: string): boolean {
  return /^\..*\.cloudtray-[0-9a-f]{8}\.part$/s.test(name)
}
