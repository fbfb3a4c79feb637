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
import { limitReadAhead } from './read-ahead'
import { shellExitOf, watchShellExit } from './shell-exit'

export interface TerminalSessionOptions {
  id: string
  instanceId: string
  clientId: ClientId
  cols: number
  rows: number
  clock: Clock
  send: (data: Uint8Array) => void
  /** The shell ended by itself (exit, logout), with its exit code when the server said. */
  onShellExit: (session: TerminalSession, exitCode: number | null) => void
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
  private readonly batcher: Utf8Batcher
  private readonly flow: FlowControl
  private readonly options: TerminalSessionOptions

  constructor(options: TerminalSessionOptions) {
    this.options = options
    this.id = options.id
    this.instanceId = options.instanceId
    this.clientId = options.clientId
    this.cols = options.cols
    this.rows = options.rows
    this.flow = new FlowControl(options.parseWindow, () => options.clock.now())
    this.batcher = new Utf8Batcher({ clock: options.clock, send: options.send })
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
   * land in the scrollback above the screen tmux draws. Only a flag is checked per chunk.
   */
  attach(channel: ClientChannel, hold?: (first: Buffer) => Promise<Uint8Array | undefined>): void {
    this.detach()
    this.channel = channel
    this.everConnected = true
    limitReadAhead(channel)
    // Usually watched already, by whoever opened the channel (shell-exit.ts says why).
    watchShellExit(channel)
    const deliver = (chunk: Buffer | Uint8Array): void => {
      const action = this.flow.received(chunk.length)
      // A flood (a quarter of the window owed): batches go out per read, not after 16 ms.
      this.batcher.push(chunk, this.flow.unacknowledged >= this.flow.window / 4)
      if (action === 'pause') {
        channel.pause()
        // Nothing more comes until the renderer catches up: holding the batch's tail for the
        // batching delay would only keep it from being parsed (and acknowledged) meanwhile.
        this.batcher.flush()
      }
    }
    let held: Buffer[] | undefined = hold ? [] : undefined
    const release = (prelude: Uint8Array | undefined): void => {
      const waiting = held
      held = undefined
      if (!waiting || this.channel !== channel) return
      if (prelude && prelude.length > 0) deliver(prelude)
      for (const chunk of waiting) deliver(chunk)
      if (!this.flow.isPaused) channel.resume()
    }
    const onData = (chunk: Buffer): void => {
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
    channel.on('data', onData)
    channel.stderr.on('data', onData)
    channel.on('close', () => {
      if (this.channel !== channel) return
      release(undefined)
      this.batcher.flush(true)
      this.channel = undefined
      const exitCode = shellExitOf(channel)
      if (exitCode !== undefined) this.options.onShellExit(this, exitCode)
      else this.options.onChannelLost(this)
    })
    if (this.flow.isPaused) channel.pause()
  }

  /** Forgets the channel without closing callbacks (the connection is gone or being replaced). */
  detach(): void {
    const channel = this.channel
    this.channel = undefined
    if (channel) {
      this.batcher.flush(true)
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

  write(data: string): void {
    this.channel?.write(data)
  }

  resize(cols: number, rows: number): void {
    this.cols = cols
    this.rows = rows
    this.channel?.setWindow(rows, cols, 0, 0)
  }

  ack(bytes: number): void {
    if (this.flow.acknowledged(bytes) === 'resume') this.channel?.resume()
  }

  /** The user closed the tab. */
  close(): void {
    this.finished = true
    const channel = this.channel
    this.channel = undefined
    this.batcher.close()
    if (channel) {
      channel.removeAllListeners('close')
      channel.close()
    }
  }
}
