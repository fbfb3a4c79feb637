/**
 * What each terminal's tab would show, for tests and benchmarks: a headless xterm per terminal
 * (@xterm/headless, the renderer's own parser), made alike wherever a test stands in for a tab
 * (the harness, a core's window, a web-shell page), and its buffer read back as lines of text.
 */
import { createRequire } from 'node:module'
import type { Terminal as Xterm } from '@xterm/headless'

// @xterm/headless is CommonJS without named exports Node can see: required, so the benchmarks
// (plain Node through tsx) can use this as the tests (vitest) do.
const { Terminal: HeadlessTerminal } = createRequire(import.meta.url)('@xterm/headless') as typeof import('@xterm/headless')

export interface ScreenSize {
  cols: number
  rows: number
  scrollback?: number
}

export class HeadlessScreens {
  private readonly xterms = new Map<string, Xterm>()

  /** `size` is read when a terminal's screen is first made. */
  constructor(private readonly size: () => ScreenSize) {}

  /** The terminal's xterm, made on first use. */
  screen(terminalId: string): Xterm {
    let term = this.xterms.get(terminalId)
    if (!term) {
      const { cols, rows, scrollback = 10_000 } = this.size()
      term = new HeadlessTerminal({ cols, rows, scrollback, scrollOnEraseInDisplay: true, allowProposedApi: true })
      this.xterms.set(terminalId, term)
    }
    return term
  }

  /** Drops every terminal's xterm (their output is no longer wanted). */
  dispose(): void {
    for (const term of this.xterms.values()) term.dispose()
    this.xterms.clear()
  }

  /** Every line of the terminal's buffer, scrollback and screen, as text (parsed so far). */
  lines(terminalId: string): string[] {
    return screenLines(this.screen(terminalId))
  }
}

/** Every line of one xterm's buffer, scrollback and screen, as text (parsed so far). */
export function screenLines(term: Xterm): string[] {
  const buffer = term.buffer.active
  return Array.from({ length: buffer.length }, (_, row) => buffer.getLine(row)?.translateToString(true) ?? '')
}
