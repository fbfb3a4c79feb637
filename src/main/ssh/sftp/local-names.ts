/**
 * Names from the instance as a download may write them on the user's computer, decided in main
 * (#21). A hostile SFTP server lists whatever names it likes; until now only the browser engine's
 * own check (the File System Access API refusing `..`) stood between them and the user's disk.
 *
 * - A name no file system has (empty, `.`, `..`, one holding `/` or NUL, longer than 255 bytes)
 *   is left out: it would name another place, and it cannot be a real file on the instance.
 * - A name the instance may have but the user's disk should not get is renamed, each offending
 *   character becoming `_`: control characters (a newline, BEL, escapes), invisible format
 *   characters (U+202E turns «invoice‮gpj.exe» into what looks like a picture), and `\`, a folder
 *   separator on Windows that the browser refuses everywhere. On Windows also `<>:"|?*`, a trailing
 *   dot or space, and device names (CON, NUL, COM1…).
 * - In one folder, a name listed twice is taken once, and a renamed name that meets another
 *   gets " (2)" (case-blind where the disk is: Windows and macOS).
 * The transfer's summary says what was left out and what was renamed (a few of each, by name).
 */
import { cutText, visibleText } from '../../../shared/untrusted-text'
import { MAX_NAME_BYTES } from './remote-path'

export type LocalName = { ok: true; name: string; renamed: boolean } | { ok: false; why: string }

const RENAMED_EVERYWHERE = /[\p{Cc}\u2028\u2029\\]|(?![\u200C\u200D])\p{Cf}/gu
const RENAMED_ON_WINDOWS = /[<>:"|?*]/g
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i

/** How `remote` may be written on this computer, or why it is left out. */
export function localNameFor(remote: string, platform: NodeJS.Platform = process.platform): LocalName {
  if (remote === '' || remote === '.' || remote === '..') return { ok: false, why: 'names no file' }
  if (remote.includes('/') || remote.includes('\0')) return { ok: false, why: 'holds a character no file name may' }
  if (Buffer.byteLength(remote, 'utf8') > MAX_NAME_BYTES) return { ok: false, why: `is longer than ${MAX_NAME_BYTES} bytes` }
  let name = remote.replace(RENAMED_EVERYWHERE, '_')
  if (platform === 'win32') {
    name = name.replace(RENAMED_ON_WINDOWS, '_').replace(/[. ]$/, '_')
    if (WINDOWS_DEVICE.test(name)) name = `_${name}`
  }
  return { ok: true, name, renamed: name !== remote }
}

/** What one download left out and renamed, for its summary. */
export class NameReport {
  readonly left: { name: string; why: string }[] = []
  readonly renamed: { from: string; to: string }[] = []
  leftCount = 0
  renamedCount = 0

  leave(name: string, why: string): void {
    this.leftCount++
    if (this.left.length < SHOWN) this.left.push({ name, why })
  }

  rename(from: string, to: string): void {
    this.renamedCount++
    if (this.renamed.length < SHOWN) this.renamed.push({ from, to })
  }

  /** A sentence or two for the summary; undefined when every name was taken as it was. */
  note(): string | undefined {
    const parts: string[] = []
    if (this.leftCount > 0) {
      const examples = this.left.map(({ name, why }) => `${shown(name)} ${why}`).join('; ')
      parts.push(
        `${this.leftCount} ${this.leftCount === 1 ? 'item was' : 'items were'} left out because the instance gave ${this.leftCount === 1 ? 'it a name' : 'them names'} no file can have (${examples}${more(this.leftCount)}).`
      )
    }
    if (this.renamedCount > 0) {
      const examples = this.renamed.map(({ from, to }) => `${shown(from)} → ${shown(to)}`).join(', ')
      parts.push(
        `${this.renamedCount} ${this.renamedCount === 1 ? 'name was' : 'names were'} changed to be safe on your computer (${examples}${more(this.renamedCount)}).`
      )
    }
    return parts.length > 0 ? parts.join(' ') : undefined

    function more(count: number): string {
      return count > SHOWN ? `, and ${count - SHOWN} more` : ''
    }
  }
}

/** Examples of each kind the summary names. */
const SHOWN = 3

/** A name as a sentence shows it: escapes for what cannot be seen, at most 60 characters. */
function shown(name: string): string {
  const escaped = name.replace(/[\p{Cc}\u2028\u2029]|(?![\u200C\u200D])\p{Cf}/gu, (char) => {
    const code = char.codePointAt(0)!
    return code === 10 ? '\\n' : code === 9 ? '\\t' : `\\u{${code.toString(16)}}`
  })
  return `“${cutText(visibleText(escaped), 60)}”`
}

/**
 * The names of one folder's entries as they may be written here: each entry's local name, or
 * undefined when it is left out (the report says why). A name listed twice is taken once; a
 * renamed one that meets another gets " (2)", " (3)"…
 */
export function folderNames(
  remotes: readonly string[],
  report: NameReport,
  platform: NodeJS.Platform = process.platform
): (string | undefined)[] {
  const foldCase = platform === 'win32' || platform === 'darwin'
  const key = (name: string): string => (foldCase ? name.toLowerCase() : name)
  const decided = remotes.map((remote) => localNameFor(remote, platform))
  const taken = new Set<string>()
  const seen = new Set<string>()
  const result: (string | undefined)[] = new Array<string | undefined>(remotes.length)
  // Names kept as they are come first, so a renamed one never takes a real file's name.
  for (const [index, decision] of decided.entries()) {
    const remote = remotes[index]!
    if (!decision.ok || decision.renamed) continue
    if (seen.has(remote) || taken.has(key(decision.name))) continue
    seen.add(remote)
    taken.add(key(decision.name))
    result[index] = decision.name
  }
  for (const [index, decision] of decided.entries()) {
    const remote = remotes[index]!
    if (result[index] !== undefined) continue
    if (!decision.ok) {
      report.leave(remote, decision.why)
      continue
    }
    if (seen.has(remote)) {
      report.leave(remote, 'is listed twice')
      continue
    }
    seen.add(remote)
    let name = decision.name
    for (let copy = 2; taken.has(key(name)); copy++) name = numbered(decision.name, copy)
    taken.add(key(name))
    result[index] = name
    report.rename(remote, name)
  }
  return result
}

/** "report (2).pdf", its stem shortened when the name would pass NAME_MAX. */
function numbered(name: string, copy: number): string {
  const dot = name.lastIndexOf('.')
  // An extension too long to keep beside a number goes with the stem.
  const extension = dot > 0 && Buffer.byteLength(name.slice(dot), 'utf8') <= MAX_NAME_BYTES / 2 ? name.slice(dot) : ''
  const suffix = ` (${copy})${extension}`
  const kept = Array.from(extension ? name.slice(0, dot) : name)
  while (kept.length > 0 && Buffer.byteLength(kept.join('') + suffix, 'utf8') > MAX_NAME_BYTES) kept.pop()
  return `${kept.join('')}${suffix}`
}
