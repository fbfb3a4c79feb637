/**
 * Server strings (instance names, messages) shown where nothing of ours escapes them: the OS's
 * tray and notifications (src/main/os-text.ts) and the user's terminal (src/cli). Invisible
 * format characters are neutralised: bidirectional embeddings, overrides and isolates
 * (U+202A–202E, U+2066–2069) and the direction marks (U+200E, U+200F, U+061C) could make
 * «gpu-box‮txt.exe» read as something else; zero-width and other invisible format characters
 * (Unicode category Cf) hide what a name really is. Each becomes a visible U+FFFD �, so the user
 * sees that a name holds something odd. Control characters (line breaks, tabs, escapes: in a
 * terminal, an escape sequence could rewrite the screen or its title) become a space, except
 * line breaks where the text has several lines. ZWJ and ZWNJ (U+200C, U+200D) are kept: scripts
 * and emoji need them, and they cannot reorder text.
 */

const INVISIBLE_FORMAT = /(?![\u200C\u200D])\p{Cf}/gu
const CONTROL = /[\p{Cc}\u2028\u2029]/gu
const CONTROL_BUT_NEWLINE = /(?!\n)[\p{Cc}\u2028\u2029]/gu

export const SHOWN_FOR_INVISIBLE = '\uFFFD'

/** One line: no invisible format characters, no control characters. */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE_FORMAT, SHOWN_FOR_INVISIBLE).replace(CONTROL, ' ')
}

/** Like visibleText, but keeps `\n` (a text of several lines). */
export function visibleLines(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(INVISIBLE_FORMAT, SHOWN_FOR_INVISIBLE).replace(CONTROL_BUT_NEWLINE, ' ')
}
