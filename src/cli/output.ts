/**
 * What the command line prints: tables for people, JSON for scripts, and one rule for every
 * server string on the way to the terminal (src/shared/untrusted-text.ts), so an instance named
 * with an escape sequence cannot rewrite the user's screen.
 */
import { highest } from '../shared/extremes'
import { visibleLines, visibleText } from '../shared/untrusted-text'

export interface Io {
  out: NodeJS.WriteStream
  err: NodeJS.WriteStream
  input: NodeJS.ReadStream
}

/** The process's streams; stdin only made when a command reads it (making it costs a few milliseconds). */
export function stdio(): Io {
  return {
    out: process.stdout,
    err: process.stderr,
    get input() {
      return process.stdin
    }
  }
}

/** A server string, safe to print on one line. */
export const shown = visibleText
/** A server text of several lines, safe to print. */
export const shownLines = visibleLines

/** Display width: East Asian wide characters and emoji take two columns. */
export function displayWidth(text: string): number {
  let width = 0
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (code < 0x20 || (code >= 0x300 && code <= 0x36f) || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)) continue
    const wide =
      (code >= 0x1100 && code <= 0x115f) ||
      (code >= 0x2e80 && code <= 0xa4cf) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe30 && code <= 0xfe4f) ||
      (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x1f300 && code <= 0x1faff) ||
      (code >= 0x20000 && code <= 0x3fffd)
    width += wide ? 2 : 1
  }
  return width
}

/** Rows under a header, columns padded to their widest cell (the last column unpadded). */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => highest([displayWidth(title), ...rows.map((row) => displayWidth(row[column] ?? ''))]) ?? 0)
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell + ' '.repeat(widths[column]! - displayWidth(cell))))
      .join('  ')
      .trimEnd()
  return [line(header), ...rows.map(line)].join('\n') + '\n'
}

/** Key: value lines, keys aligned. */
export function fields(entries: readonly (readonly [string, string])[]): string {
  const width = highest(entries.map(([key]) => key.length)) ?? 0
  return entries.map(([key, value]) => `${`${key}:`.padEnd(width + 1)}  ${value}`).join('\n') + '\n'
}

/** Pretty JSON for scripts, one trailing newline. */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`
}
