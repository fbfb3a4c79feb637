/**
 * `cloud-tray ssh NAME|ID [-t|-T] [-- command…]` and `cloud-tray ssh --print-config NAME|ID`.
 *
 * A session in the user's own terminal over the app's shared SSH link to the instance and the
 * host keys it trusts (contract-ssh.ts: `ssh.open` with `run`): with no command, the login shell
 * on a pseudo-terminal (raw mode, window size changes, Ctrl-C passed through as a keystroke);
 * with one, its output (stdout and stderr apart) and its exit status, as OpenSSH passes them.
 * Output is acknowledged as the terminal or pipe takes it and piped input is sent as SSH takes
 * it, so neither side piles up bytes. Exit: the remote status; 255 when the connection failed or
 * was lost or the command was killed by a signal (OpenSSH's convention).
 */
import { spawnSync } from 'node:child_process'
import type { Events } from '../../shared/contract'
import type { TerminalStatus } from '../../shared/contract-ssh'
import type { AppClient } from '../app-client'
import { call, connect, signedInSnapshot, type CliContext } from '../app'
import { EXIT, exitCodeOf } from '../exit-codes'
import { resolveInstance } from '../instance-names'
import { shown, type Io } from '../output'
import { answerPrompts } from './ssh-prompts'

export interface SshOptions {
  /** -t: a pseudo-terminal even for a command. */
  tty?: boolean
  /** -T: never a pseudo-terminal. */
  noTty?: boolean
  printConfig?: boolean
}

/** Piped input may be this far ahead of what SSH took (contract-ssh.ts `ssh.written`). */
const INPUT_AHEAD = 1024 * 1024
const INPUT_PIECE = 64 * 1024

export async function sshCommand(context: CliContext, name: string, words: readonly string[], options: SshOptions): Promise<number> {
  const app = await connect(context)
  try {
    const [snapshot] = await signedInSnapshot(app, async () => undefined)
    const instance = resolveInstance(snapshot.instances, name)
    const instanceId = instance.instanceMetadata.instanceId
    if (options.printConfig) {
      const preview = await call(app, 'ssh.configPreview', { instanceId })
      context.io.out.write(preview.block.endsWith('\n') ? preview.block : `${preview.block}\n`)
      return EXIT.ok
    }
    // `--` ends this command line's options (commander passes it on); the rest is joined as
    // OpenSSH joins it, for the remote shell to split again.
    const rest = words[0] === '--' ? words.slice(1) : words
    const command = rest.length > 0 ? rest.join(' ') : undefined
    const pty = options.noTty ? false : options.tty ? true : command === undefined && context.io.input.isTTY === true
    return await new RemoteSession(app, context.io, instance.instanceSpecInfo.name).run(instanceId, command, pty)
  } finally {
    app.close()
  }
}

/**
 * Node's raw mode (libuv's) keeps the terminal's output processing, so every \n the remote
 * terminal already sent as \r\n would reach the screen as \r\r\n, and a program's bytes would
 * not arrive as sent. OpenSSH turns it off (cfmakeraw); Node has no termios call, so stty does
 * it, on the same terminal (stdin). Where there is no stty (Windows), output stays processed.
 */
function rawOutput(): void {
  if (process.platform === 'win32') return
  spawnSync('stty', ['-opost'], { stdio: ['inherit', 'ignore', 'ignore'] })
}

class RemoteSession {
  private terminalId: string | undefined
  /** Events that came before `ssh.open` answered (none, in practice: the app connects after answering). */
  private early: (() => void)[] = []
  private connected = false
  private ahead = 0
  private inputPaused = false
  /** The SSH questions of this session, answered at the terminal; Ctrl-C at one ends it. */
  private readonly prompts: ReturnType<typeof answerPrompts>
  private ended = false
  private finish!: (code: number) => void
  private readonly done = new Promise<number>((resolve) => (this.finish = resolve))
  private readonly cleanups: (() => void)[] = []

  constructor(
    private readonly app: AppClient,
    private readonly io: Io,
    private readonly instanceName: string
  ) {
    this.prompts = answerPrompts(app, io, instanceName, () => {
      if (this.prompts.state.cancelled) this.end(EXIT.interrupted)
    })
  }

  async run(instanceId: string, command: string | undefined, pty: boolean): Promise<number> {
    const { io, app } = this
    const mine = (terminalId: string, act: () => void): void => {
      if (this.terminalId === undefined) this.early.push(() => terminalId === this.terminalId && act())
      else if (terminalId === this.terminalId) act()
    }
    this.cleanups.push(
      app.on('ssh.status', (status) => mine(status.terminalId, () => this.status(status, pty))),
      app.on('ssh.data', (payload) => mine(payload.terminalId, () => this.data(payload))),
      app.on('ssh.written', (payload) => mine(payload.terminalId, () => this.written(payload.bytes))),
      this.prompts.off
    )
    void app.closed.then(() => this.end(EXIT.ssh, 'Cloud Tray closed the connection (did it quit?).'))
    const onSignal = (signal: NodeJS.Signals): void => {
      if (this.terminalId) void app.invoke('ssh.close', { terminalId: this.terminalId })
      this.end(signal === 'SIGINT' ? EXIT.interrupted : 128 + (signal === 'SIGTERM' ? 15 : 1))
    }
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, onSignal)
      this.cleanups.push(() => process.off(signal, onSignal))
    }
    const size = { cols: io.out.columns || 80, rows: io.out.rows || 24 }
    const term = process.env['TERM']
    const run = {
      pty,
      ...(command !== undefined ? { command } : {}),
      ...(pty && term && /^[A-Za-z0-9._+-]{1,64}$/.test(term) ? { term } : {})
    }
    const opened = await app.invoke('ssh.open', { instanceId, ...size, run })
    if (!opened.ok) {
      // Refused before any connection (the instance is not running, has no SSH port): the app's words and code.
      this.end(exitCodeOf(opened.error), opened.error.message)
    } else {
      this.terminalId = opened.value.terminalId
      for (const replay of this.early.splice(0)) replay()
    }
    return this.done
  }

  private status(status: TerminalStatus, pty: boolean): void {
    switch (status.state) {
      case 'connected':
        if (!this.connected) {
          this.connected = true
          this.startInput(pty)
        }
        return
      case 'reconnecting':
        if (this.io.err.isTTY) this.io.err.write(`${shown(status.message)}\n`)
        return
      case 'failed':
        this.end(EXIT.ssh, this.prompts.state.refusal ?? shown(status.message))
        return
      case 'closed':
        if (status.exitCode !== undefined) this.end(status.exitCode)
        else if (status.signal) this.end(EXIT.ssh, `The remote command was killed by SIG${shown(status.signal)}.`)
        else this.end(EXIT.ssh, `Connection to ${shown(this.instanceName)} closed: ${shown(status.message)}.`)
        return
      default:
        return
    }
  }

  private data({ terminalId, data, stream }: Events['ssh.data']): void {
    const target = stream === 'stderr' ? this.io.err : this.io.out
    // Acknowledged once the terminal or pipe took it: a slow reader slows the remote command.
    target.write(data, () => this.app.notice('ssh.ack', { terminalId, bytes: data.length }))
  }

  private written(bytes: number): void {
    this.ahead -= bytes
    if (this.inputPaused && this.ahead < INPUT_AHEAD / 2) {
      this.inputPaused = false
      this.io.input.resume()
    }
  }

  private startInput(pty: boolean): void {
    const { io, app } = this
    const terminalId = this.terminalId!
    const input = io.input
    if (pty && input.isTTY) {
      // Keystrokes go as typed: Ctrl-C is a byte for the remote terminal, not a signal here.
      input.setRawMode(true)
      rawOutput()
      // Node's "normal" mode puts back the terminal's settings as they were before raw mode.
      this.cleanups.push(() => input.setRawMode(false))
    }
    if (pty && io.out.isTTY) {
      const onResize = (): void => app.notice('ssh.resize', { terminalId, cols: io.out.columns || 80, rows: io.out.rows || 24 })
      io.out.on('resize', onResize)
      this.cleanups.push(() => io.out.off('resize', onResize))
    }
    const onData = (chunk: Buffer): void => {
      for (let offset = 0; offset < chunk.length; offset += INPUT_PIECE) {
        const piece = chunk.subarray(offset, offset + INPUT_PIECE)
        app.notice('ssh.input', { terminalId, data: new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength) })
      }
      this.ahead += chunk.length
      if (this.ahead > INPUT_AHEAD && !this.inputPaused) {
        this.inputPaused = true
        input.pause()
      }
    }
    const onEnd = (): void => app.notice('ssh.eof', { terminalId })
    input.on('data', onData)
    input.on('end', onEnd)
    input.resume()
    this.cleanups.push(() => {
      input.off('data', onData)
      input.off('end', onEnd)
      input.pause()
    })
  }

  private end(code: number, message?: string): void {
    if (this.ended) return
    this.ended = true
    for (const cleanup of this.cleanups.splice(0)) cleanup()
    if (message) this.io.err.write(`${message}\n`)
    this.finish(code)
  }
}
