/**
 * Makes sure the last output of a pty session reaches the client.
 *
 * Two ways node-pty loses it (measured: `bash -c 'head -c 8M /dev/zero'` came back short by
 * 0–8 KB in most runs, while a blocking reader in Python lost nothing):
 * - its read stream is non-blocking, and once the last process on the terminal exits the
 *   master reports the end (EIO) before the kernel has handed over what was still buffered;
 * - when the shell exits it destroys the read stream after 200 ms
 *   (node-pty/lib/unixTerminal.js, DESTROY_SOCKET_TIMEOUT_MS), which throws away whatever a
 *   stream paused for backpressure had not read yet.
 *
 * So, as OpenSSH's sshd does with its own copy of the tty, we hold the pty's slave side open
 * while the session runs: the master never sees the end early and reads every byte. node-pty's
 * exit-time destroy is where we let go: we close our slave, resume the stream, and it ends by
 * itself after the tail (with the real destroy as a fallback if a background job keeps the
 * terminal open). Exit status therefore arrives about 200 ms after the process ends.
 */
import { closeSync, constants, openSync } from 'node:fs'

interface TtyReadStream {
  isPaused(): boolean
  resume(): unknown
  destroy(error?: Error): unknown
  once(event: 'close', listener: () => void): unknown
}

export interface SlaveAccess {
  open(path: string): number
  close(fd: number): void
}

const realSlave: SlaveAccess = {
  open: (path) => openSync(path, constants.O_RDWR | constants.O_NOCTTY),
  close: (fd) => closeSync(fd)
}

/** Takes node-pty's terminal (its `_socket` stream and `_pty` slave path); anything else is left alone. */
export function keepTailOnExit(pty: object, slave: SlaveAccess = realSlave, fallbackMs = 2_000): void {
  const internals = pty as { _socket?: unknown; _pty?: unknown }
  const stream = internals._socket
  if (!isTtyReadStream(stream)) return
  let slaveFd: number | undefined
  if (typeof internals._pty === 'string') {
    try {
      slaveFd = slave.open(internals._pty)
    } catch {
      slaveFd = undefined // not fatal: only the tail guarantee is lost
    }
  }
  const releaseSlave = (): void => {
    if (slaveFd === undefined) return
    const fd = slaveFd
    slaveFd = undefined
    try {
      slave.close(fd)
    } catch {
      /* already closed */
    }
  }
  stream.once('close', releaseSlave)

  const destroy = stream.destroy.bind(stream)
  let deferred = false
  stream.destroy = (error?: Error) => {
    if (deferred) return destroy(error)
    deferred = true
    releaseSlave()
    const timer = setTimeout(() => destroy(error), fallbackMs)
    timer.unref()
    stream.once('close', () => clearTimeout(timer))
    stream.resume()
    return stream
  }
}

function isTtyReadStream(value: unknown): value is TtyReadStream {
  const candidate = value as Partial<TtyReadStream> | undefined
  return (
    typeof candidate?.isPaused === 'function' &&
    typeof candidate.resume === 'function' &&
    typeof candidate.destroy === 'function' &&
    typeof candidate.once === 'function'
  )
}
