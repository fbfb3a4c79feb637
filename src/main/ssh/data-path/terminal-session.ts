/**
 * One terminal tab's data path: bytes from its shell channel go through flow control and the
 * UTF-8 batcher to `send`; acks from the renderer may resume the channel. The tab outlives its
 * channel: after a reconnect a new shell is attached to the same session, and the counters carry
 * over because the renderer still acknowledges bytes of the old channel it had not parsed yet.
 */
import type { ClientChannel } from 'ssh2'
import type { Clock } from '../../../shared/clock'
import type { TerminalState } from '../../../shared/contract-ssh'
import type { ClientId } from '../../core-types'
import { Utf8Batcher } from './batcher'
import { FlowControl, type ParseWindowBounds } from './flow-control'
import { limitReadAhead, readAheadFor } from './read-ahead'
import { enforceReceiveLimit, paceReceiveWindow } from './receive-window'
import { shellExitOf, shellSignalOf, watchShellExit } from './shell-exit'

/**
 * For this long after input, output is sent at the next turn instead of after the batching delay:
 * a remote echo comes back within a round trip, and a far region's is 100–200 ms away.
 */
export const ECHO_WAIT_MS = 1_000
/**
 * …and for this much of it: an echo, a prompt, a screen redrawn after a key. Beyond it the
 * output is a command's own, batched as ever (one message per 16 ms or 64 KiB rather than one per
 * read: a flood acknowledged at once, as in bench/ssh-throughput.ts, would otherwise go out in
 * small batches for its first second).
 */
export const ECHO_BYTES = 16 * 1024

export interface TerminalSessionOptions {
  id: string
  instanceId: string
  clientId: ClientId
  cols: number
  rows: number
  clock: Clock
  send: (data: Uint8Array) => void
  /** A command line's session without a pseudo-terminal: stderr apart (absent: stderr goes to `send`, as a terminal shows it). */
  sendStderr?: (data: Uint8Array) => void
  /** A command line's session: input bytes handed to SSH (its credit; see contract-ssh.ts). */
  onWritten?: (bytes: number) => void
  /** The shell ended by itself (exit, logout), with its exit code when the server said. */
  onShellExit: (session: TerminalSession, exitCode: number | null, signal: string | undefined) => void
  /** The channel closed without an exit status: usually the connection is going down. */
  onChannelLost: (session: TerminalSession) => void
  parseWindow?: ParseWindowBounds
}

export interface TerminalStats {
  unacknowledged: number
  /** Flow control's window now (two of xterm's parse slices, see flow-control.ts). */
  window: number
  peak: number
  paused: boolean
  readAhead: number
}

export class TerminalSession {
  readonly id: string
  readonly instanceId: string
  readonly clientId: ClientId
  cols: number
  rows: number
  state: TerminalState = 'connecting'
  /** Set once the user closed the tab or the shell exited: never reconnect it. */
  finished = false
  /** Set once it has been connected: a later drop is a "connection lost". */
  everConnected = false
  private channel: ClientChannel | undefined
  /** The parse speed the channel's buffers were last sized for (`pace`). */
  private pacedFor: number | undefined
  private readonly batcher: Utf8Batcher
  private readonly errorBatcher: Utf8Batcher | undefined
  private readonly flow: FlowControl
  private readonly options: TerminalSessionOptions
  /** When the user last typed (clock ms): output soon after is likely its echo. */
  private lastInputAt = Number.NEGATIVE_INFINITY
  /** How much more output counts as that echo (a command's flood after Enter is batched as ever). */
  private echoBytes = 0
  /** What the user typed while the channel's first bytes are held: it goes to the shell once they are released. */
  private typedWhileHeld: (string | Uint8Array)[] | undefined

  constructor(options: TerminalSessionOptions) {
    this.options = options
    this.id = options.id
    this.instanceId = options.instanceId
    this.clientId = options.clientId
    this.cols = options.cols
    this.rows = options.rows
    this.flow = new FlowControl(options.parseWindow, () => options.clock.now())
    this.batcher = new Utf8Batcher({ clock: options.clock, send: options.send })
    this.errorBatcher = options.sendStderr ? new Utf8Batcher({ clock: options.clock, send: options.sendStderr }) : undefined
  }

  get hasChannel(): boolean {
    return this.channel !== undefined
  }

  /**
   * Unacknowledged bytes now, the most ever, whether the channel is paused, and what ssh2 holds
   * read ahead for it (see read-ahead.ts).
   */
  stats(): TerminalStats {
    return {
      unacknowledged: this.flow.unacknowledged,
      window: this.flow.window,
      peak: this.flow.peak,
      paused: this.flow.isPaused,
      readAhead: this.channel?.readableLength ?? 0
    }
  }

  /**
   * Takes `channel` as the tab's shell. With `hold`, its first bytes wait (the channel paused)
   * until `hold` answers what goes before them: a re-attached tmux session's history, which must
   * land in the scrollback above the screen tmux draws. Only a flag is checked per chunk. What
   * the user types meanwhile waits too: until then the shell is not the one they mean to type
   * into (a re-attaching tmux client sits in its lobby, remote-scripts.ts).
   */
  attach(channel: ClientChannel, hold?: (first: Buffer) => Promise<Uint8Array | undefined>): void {
    this.detach()
    this.channel = channel
    this.everConnected = true
    this.pace(channel)
    // Usually watched already, by whoever opened the channel (shell-exit.ts says why).
    watchShellExit(channel)
    const deliverTo =
      (batcher: Utf8Batcher) =>
      (chunk: Buffer | Uint8Array): void => {
        const action = this.flow.received(chunk.length)
        if (action === 'pause') {
          // Before the chunk goes on: a consumer that acknowledges inside `send` resumes the
          // channel from there, and that resume must come after this pause, not be undone by it.
          channel.pause()
          // The page is the bottleneck: the receive window's bytes would now queue ahead of a Ctrl-C.
          enforceReceiveLimit(channel)
        }
        // Batches go out per read, not after 16 ms, in a flood (a quarter of the window owed):
        // xterm must not wait for a refill's tail; and just after a key: its echo is what the
        // user waits for (a 16 ms wait was up to a frame more between key press and paint).
        const flood = this.flow.unacknowledged >= this.flow.window / 4
        const echo = this.echoBytes > 0 && this.options.clock.now() - this.lastInputAt < ECHO_WAIT_MS
        if (echo) this.echoBytes -= chunk.length
        batcher.push(chunk as Buffer, flood || echo)
        // Nothing more comes until the renderer catches up: holding the batch's tail for the
        // batching delay would only keep it from being parsed (and acknowledged) meanwhile.
        if (action === 'pause') this.flushAll()
      }
    let held: Buffer[] | undefined = hold ? [] : undefined
    this.typedWhileHeld = hold ? [] : undefined
    const release = (prelude: Uint8Array | undefined): void => {
      const waiting = held
      held = undefined
      if (!waiting || this.channel !== channel) return
      const deliver = deliverTo(this.batcher)
      if (prelude && prelude.length > 0) deliver(prelude)
      for (const chunk of waiting) deliver(chunk)
      if (!this.flow.isPaused) channel.resume()
      const typed = this.typedWhileHeld ?? []
      this.typedWhileHeld = undefined
      for (const data of typed) this.write(data)
    }
    const receiver = (batcher: Utf8Batcher): ((chunk: Buffer) => void) => {
      const deliver = deliverTo(batcher)
      return (chunk) => {
        if (this.channel !== channel) return
        if (held) {
          held.push(chunk)
          if (held.length === 1) {
            channel.pause()
            hold!(chunk).then(release, () => release(undefined))
          }
          return
        }
        deliver(chunk)
      }
    }
    channel.on('data', receiver(this.batcher))
    channel.stderr.on('data', receiver(this.errorBatcher ?? this.batcher))
    channel.on('close', () => {
      if (this.channel !== channel) return
      release(undefined)
      this.flushAll(true)
      this.channel = undefined
      const exitCode = shellExitOf(channel)
      if (exitCode !== undefined) this.options.onShellExit(this, exitCode, shellSignalOf(channel))
      else this.options.onChannelLost(this)
    })
    if (this.flow.isPaused) channel.pause()
  }

  /** Forgets the channel without closing callbacks (the connection is gone or being replaced). */
  detach(): void {
    const channel = this.channel
    this.channel = undefined
    this.typedWhileHeld = undefined
    if (channel) {
      this.flushAll(true)
      channel.removeAllListeners('data')
      channel.stderr.removeAllListeners('data')
    }
  }

  /** Closes the current shell without reporting it (Reconnect on a live tab: a new shell follows). */
  dropChannel(): void {
    const channel = this.channel
    this.detach()
    if (channel) {
      channel.removeAllListeners('close')
      channel.close()
    }
  }

  write(data: string | Uint8Array): void {
    const channel = this.channel
    if (!channel) return
    if (this.typedWhileHeld) {
      this.typedWhileHeld.push(data)
      return
    }
    this.lastInputAt = this.options.clock.now()
    this.echoBytes = ECHO_BYTES
    const chunk = typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength)
    const onWritten = this.options.onWritten
    if (!onWritten) {
      channel.write(chunk)
      return
    }
    // ssh2 calls back once the bytes went out within the server's window: the credit follows SSH.
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.length
    channel.write(chunk, () => onWritten(bytes))
  }

  /** The input ended: the command reads end-of-file (SSH's channel EOF). */
  endInput(): void {
    this.channel?.end()
  }

  resize(cols: number, rows: number): void {
    this.cols = cols
    this.rows = rows
    this.channel?.setWindow(rows, cols, 0, 0)
  }

  /** `parseMs`: how long xterm took to parse them, when the renderer says (flow-control.ts sizes the window by it). */
  ack(bytes: number, parseMs?: number): void {
    const action = this.flow.acknowledged(bytes, parseMs)
    if (this.channel && this.flow.speed !== this.pacedFor) this.pace(this.channel)
    if (action === 'resume') this.channel?.resume()
  }

  /** The SSH side's buffers hold what xterm's parse speed is worth (flow-control.ts SSH_SIDE_BUDGET_MS). */
  private pace(channel: ClientChannel): void {
    this.pacedFor = this.flow.speed
    limitReadAhead(channel, readAheadFor(this.pacedFor))
    paceReceiveWindow(channel, this.pacedFor)
  }

  /** The user closed the tab. */
  close(): void {
    this.finished = true
    const channel = this.channel
    this.channel = undefined
    this.batcher.close()
    this.errorBatcher?.close()
    if (channel) {
      channel.removeAllListeners('close')
      channel.close()
    }
  }

  private flushAll(final = false): void {
    this.batcher.flush(final)
    this.errorBatcher?.flush(final)
  }
}
