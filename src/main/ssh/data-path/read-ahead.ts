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
 *
 * ssh2 takes no option for it, hence the stream state (a plain field in Node 20 and Electron's Node).
 */
import type { Readable } from 'node:stream'

export const CHANNEL_READ_AHEAD = 64 * 1024

interface WithReadableState {
  _readableState?: { highWaterMark?: number }
}

export function limitReadAhead(channel: Readable, bytes = CHANNEL_READ_AHEAD): void {
  const state = (channel as unknown as WithReadableState)._readableState
  if (state && typeof state.highWaterMark === 'number') state.highWaterMark = bytes
}
