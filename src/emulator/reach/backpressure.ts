/**
 * Moving a pty's output into an SSH channel the way sshd does: the pty is read only while the
 * client's SSH window has room for what was read. Each channel write's callback fires once
 * ssh2 has sent that chunk inside the window; when more than `limit` bytes wait for the window,
 * the pty stops being read until they are sent. The shell then blocks on its own write, as it
 * would on a slow terminal, so `yes` can neither fill the emulator's memory nor queue megabytes
 * behind a Ctrl-C (the tty discards its own queue on the interrupt; bytes read out of it are
 * beyond reach, so they are kept few).
 */

export interface PausableSource {
  onData(listener: (data: string | Buffer) => void): unknown
  pause(): void
  resume(): void
}

export interface CallbackSink {
  write(data: string | Buffer, callback: (error?: Error | null) => void): boolean
}

/** Bytes read from the pty that may wait for the client's window: two SSH packets. */
export const WAITING_FOR_WINDOW_LIMIT = 64 * 1024

export function pumpWithBackpressure(source: PausableSource, sink: CallbackSink, limit = WAITING_FOR_WINDOW_LIMIT): void {
  let waiting = 0
  let paused = false
  source.onData((data) => {
    const size = typeof data === 'string' ? Buffer.byteLength(data) : data.length
    waiting += size
    sink.write(data, () => {
      waiting -= size
      if (paused && waiting <= limit / 2) {
        paused = false
        source.resume()
      }
    })
    if (!paused && waiting > limit) {
      paused = true
      source.pause()
    }
  })
}
