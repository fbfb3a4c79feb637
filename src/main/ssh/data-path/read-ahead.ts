/**
 * How much an ssh2 channel reads ahead of its consumer while paused.
 *
 * ssh2 makes every channel a stream with a 2 MiB high-water mark and keeps widening the SSH
 * window for as long as its buffer is under that mark. So pausing a channel did not stop the
 * server: it could still fill 2 MiB of buffer here plus the 2 MiB window in flight, and a
 * Ctrl-C typed into a `yes` flood came back only after those 4 MiB had been drawn (about a
 * second in the xterm benchmark). With a lower mark ssh2 stops widening the window once this
 * much waits, so at most this plus the receive window (receive-window.ts) stands between an
 * interrupt and its echo. Not much lower: on resume this, with what the window let in
 * meanwhile, refills most of the renderer's window (flow-control.ts, 256 KiB) at once; at 32 KiB
 * the bench measured the refills trickling in behind the server's restart, while 64 KiB and
 * 128 KiB moved the same and 64 KiB answered Ctrl-C sooner (100–127 ms vs 162–216 ms worst).
 * That was for plain lines. Output xterm parses slowly (`yes`) needs less to refill the window
 * and costs more behind a Ctrl-C, so once flow control knows the parse speed the mark is
 * SSH_SIDE_BUDGET_MS of it (`readAheadFor`), set again after each ack.
 *
 * ssh2 takes no option for it, hence the stream state (a plain field in Node 20 and Electron's Node).
 */
import type { Readable } from 'node:stream'
import { SSH_SIDE_BUDGET_MS } from './flow-control'

export const CHANNEL_READ_AHEAD = 64 * 1024
/** The least read-ahead, however slowly xterm parses: a refill of at least a few SSH packets. */
export const MIN_READ_AHEAD = 16 * 1024

/**
 * The read-ahead for output xterm parses at `parseSpeed` bytes per ms (flow-control.ts `speed`;
 * unknown: CHANNEL_READ_AHEAD): SSH_SIDE_BUDGET_MS of it. Plain lines reach the 64 KiB either way;
 * `yes` gets 16 KiB, ~6 ms of its parsing instead of ~25.
 */
export function readAheadFor(parseSpeed: number | undefined): number {
  if (parseSpeed === undefined || !(parseSpeed > 0)) return CHANNEL_READ_AHEAD
  return Math.min(CHANNEL_READ_AHEAD, Math.max(MIN_READ_AHEAD, Math.round(parseSpeed * SSH_SIDE_BUDGET_MS)))
}

interface WithReadableState {
  _readableState?: { highWaterMark?: number }
}

export function limitReadAhead(channel: Readable, bytes = CHANNEL_READ_AHEAD): void {
  const state = (channel as unknown as WithReadableState)._readableState
  if (state && typeof state.highWaterMark === 'number') state.highWaterMark = bytes
}
