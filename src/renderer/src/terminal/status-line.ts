/**
 * A status from main as a line printed into the terminal, coloured by what it means, on its own
 * line so it never lands in the middle of the remote program's output.
 */
import type { TerminalStatus } from '../../../shared/contract-ssh'

const COLOURS: Record<TerminalStatus['state'], string> = {
  // Bright black rather than SGR 2 (dim): dim text falls below readable contrast.
  connecting: '\x1b[90m',
  connected: '\x1b[32m', // green
  reconnecting: '\x1b[33m', // yellow
  closed: '\x1b[90m',
  failed: '\x1b[1;31m' // bold red
}

export function statusLine(status: TerminalStatus, atLineStart = false): string {
  // Control characters from the message must not drive the terminal.
  const message = status.message.replace(/[\x00-\x1f\x7f]/g, ' ')
  return `${atLineStart ? '' : '\r\n'}${COLOURS[status.state]}[${message}]\x1b[0m\r\n`
}
