/**
 * What a paste sends. xterm's `paste()` adds bracketed-paste markers when the remote program
 * asked for them and turns newlines into CR; this adds what it does not do: strip any paste
 * markers inside the text (a web page can hide `ESC[201~` in copied text to end the paste early
 * and run what follows), and say when the user should confirm first (more than one line).
 */
const PASTE_MARKERS = /\x1b\[20[01]~/g

export interface PastePlan {
  text: string
  /** Lines the paste would enter; more than one asks for confirmation. */
  lines: number
  needsConfirmation: boolean
}

export function planPaste(raw: string): PastePlan {
  const text = raw.replace(PASTE_MARKERS, '')
  const body = text.replace(/(\r\n|\r|\n)$/, '')
  const lines = body === '' ? 0 : body.split(/\r\n|\r|\n/).length
  // A single line with a trailing newline still runs at once: that too deserves a look.
  const runsImmediately = /(\r\n|\r|\n)$/.test(text)
  return { text, lines, needsConfirmation: lines > 1 || (lines === 1 && runsImmediately) }
}

/** The first lines, for the confirmation dialog. */
export function pastePreview(text: string, maxLines = 8): string {
  const lines = text.split(/\r\n|\r|\n/)
  const shown = lines.slice(0, maxLines).join('\n')
  return lines.length > maxLines ? `${shown}\n… and ${lines.length - maxLines} more lines` : shown
}
