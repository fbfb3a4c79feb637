/**
 * Moving a pty's output into an SSH channel without unbounded buffering: when the channel's
 * write answers false (the client's window is full, or its buffer passed its high-water mark),
 * the pty stops being read until the channel drains. The shell then blocks on its own write,
 * as it would on a slow terminal, so `yes` cannot fill the emulator's memory.
 */

export interface PausableSource {
  onData(listener: (data: string | Buffer) => void): unknown
  pause(): void
  resume(): void
}

export interface DrainingSink {
  write(data: string | Buffer): boolean
  once(event: 'drain', listener: () => void): unknown
}

export function pumpWithBackpressure(source: PausableSource, sink: DrainingSink): void {
  let paused = false
  source.onData((data) => {
    if (sink.write(data) || paused) return
    paused = true
    source.pause()
    sink.once('drain', () => {
      paused = false
      source.resume()
    })
  })
}
