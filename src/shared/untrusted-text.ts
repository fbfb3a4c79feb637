/**
 * Text an instance or a server sent, made fit to show: what the user sees is what is there, at a
 * length the place can hold. Invisible format characters (bidirectional overrides such as
 * U+202E, zero-width characters: Unicode category Cf, but ZWJ and ZWNJ, which scripts and emoji
 * need) become a visible U+FFFD �; control characters (line breaks, tabs, escapes, DEL, C1)
 * become a space. The OS's texts (main/os-text.ts), every server string the app shows in a
 * sentence (an SFTP error, nvidia-smi's complaint, a keyboard-interactive prompt) and every one
 * the command line prints to the user's terminal (src/cli/output.ts: an escape sequence there
 * could rewrite the screen or its title) go through here.
 */

const INVISIBLE_FORMAT = /(?![\u200C\u200D])\p{Cf}/gu
const CONTROL = /[\p{Cc}\u2028\u2029]/gu
const CONTROL_BUT_NEWLINE = /(?!\n)[\p{Cc}\u2028\u2029]/gu

export const SHOWN_FOR_INVISIBLE = '\uFFFD'

/** One line: no invisible format characters, no control characters. */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE_FORMAT, SHOWN_FOR_INVISIBLE).replace(CONTROL, ' ')
}

/** Like visibleText, but keeps `\n` (CR LF and CR become `\n`). */
export function visibleLines(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(INVISIBLE_FORMAT, SHOWN_FOR_INVISIBLE).replace(CONTROL_BUT_NEWLINE, ' ')
}

/**
 * At most `max` characters (code points) of `text`, with "…" in place of the rest. Only the start
 * is looked at, so a megabyte costs no more than `max` characters do.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text
  const points = Array.from(text.slice(0, max * 2 + 2))
  return points.length <= max ? points.join('') : `${points.slice(0, Math.max(0, max - 1)).join('')}…`
}

/**
 * The first non-empty line of what a server or instance said, fit for a sentence: trimmed, made
 * visible, at most `max` characters. '' when it said nothing.
 */
export function serverLine(text: string | undefined, max = 200): string {
  const head = (text ?? '').slice(0, 16 * 1024).trim()
  const line = head.split(/\r?\n/, 1)[0] ?? ''
  return cutText(visibleText(line).trim(), max)
}

/** Several lines a server sent (a keyboard-interactive instruction), made visible and cut to `max`. */
export function serverLines(text: string, max: number): string {
  return cutText(visibleLines(text.slice(0, max * 2 + 2)), max)
}
