/**
 * One SSH `session` channel of the built-in server: a PTY shell (node-pty) or an exec, with
 * window-change, env, signals and exit status, as OpenSSH's sshd would answer them.
 *
 * Backpressure: the pty pauses while the channel is full (backpressure.ts); an exec without a pty
 * uses stream pipes, which do the same.
 */
import { spawn as spawnChild } from 'node:child_process'
import { constants as osConstants } from 'node:os'
import * as pty from 'node-pty'
import type { PseudoTtyInfo, ServerChannel, Session } from 'ssh2'
import { acceptsClientEnv, loginShell, shellArguments, shellEnvironment, shellStartFailure } from './shell-environment'
import { pumpWithBackpressure } from './backpressure'
import { keepTailOnExit } from './pty-tail'
import { sftpServerCommand, type SftpFault } from './sftp-server'
import { sftpJail, type SftpJail } from './sftp-jail'
import { inShownHome } from './shown-home'
import { withOutputSuspended, type TerminalStall } from './terminal-stall'

export interface SessionOptions {
  home: string
  username: string
  /** First on PATH (the instance's own commands). */
  binDir?: string
  /** The instance's tmux socket folder (instance-tmux.ts). */
  tmuxDir?: string
  log(line: string): void
  /** The SFTP fault a test asked for (sftp-server.ts); none when absent. */
  sftpFault?: () => SftpFault
  /** Whether a new terminal starts with its output held up (terminal-stall.ts); none when absent. */
  terminalStall?: TerminalStall
  /** node-pty's spawn; tests pass one that fails as it does on a broken install. */
  spawnPty?: typeof pty.spawn
}

/** The exit status of a shell that could not start, as POSIX shells give for a command they cannot run. */
export const SHELL_START_FAILED = 127

/** Something running behind the channel that the session can resize, signal and kill. */
interface Running {
  resize(cols: number, rows: number): void
  signal(name: string): void
  kill(): void
}

export function serveSession(session: Session, options: SessionOptions): { close(): void } {
  let ptyInfo: PseudoTtyInfo | undefined
  let running: Running | undefined
  const clientEnv: Record<string, string> = {}

  session.on('pty', (accept, _reject, info) => {
    ptyInfo = info
    accept?.()
  })
  session.on('env', (accept, reject, info) => {
    if (acceptsClientEnv(info.key)) {
      clientEnv[info.key] = info.val
      accept?.()
    } else reject?.()
  })
  session.on('window-change', (accept, _reject, info) => {
    if (ptyInfo) ptyInfo = { ...ptyInfo, cols: info.cols, rows: info.rows }
    running?.resize(info.cols, info.rows)
    accept?.()
  })
  session.on('signal', (accept, _reject, info) => {
    running?.signal(info.name)
    accept?.()
  })
  const start = (channel: ServerChannel, command: string | undefined): void => {
    const env = shellEnvironment({
      home: options.home,
      username: options.username,
      term: ptyInfo?.term,
      clientEnv,
      ...(options.binDir ? { binDir: options.binDir } : {}),
      ...(options.tmuxDir ? { tmuxDir: options.tmuxDir } : {})
    })
    const login = loginShell()
    // In the home as a real instance shows it (/root), where this machine can (shown-home.ts).
    const { file, args } = inShownHome(login, shellArguments(login, command), options.home, options.username)
    running = ptyInfo ? runInPty(channel, file, args, env, ptyInfo, options) : runInPipes(channel, file, args, env, options)
  }
  session.on('shell', (accept) => {
    if (running) return
    start(accept(), undefined)
  })
  session.on('exec', (accept, _reject, info) => {
    if (running) return
    start(accept(), info.command)
  })
  // scp and sftp (and editors' remote file access, and the app's files panel) speak SFTP:
  // OpenSSH's own sftp-server does it for real on the instance's home, when this machine has it.
  session.on('subsystem', (accept, reject, info) => {
    const server = info.name === 'sftp' ? sftpServerCommand(options.sftpFault?.() ?? 'none', options.home) : undefined
    if (running || server === undefined) return reject()
    const env = shellEnvironment({ home: options.home, username: options.username, clientEnv })
    // Shown as a real instance's home, and never left (sftp-jail.ts).
    running = runInPipes(accept(), server.file, server.args, env, options, sftpJail(options.home, options.username))
  })
  return { close: () => running?.kill() }
}

function runInPty(
  channel: ServerChannel,
  shell: string,
  args: string[],
  env: Record<string, string>,
  info: PseudoTtyInfo,
  options: SessionOptions
): Running {
  let child: pty.IPty
  const stall = options.terminalStall?.active() ? options.terminalStall : undefined
  const start = stall ? withOutputSuspended(shell, args) : { file: shell, args }
  try {
    child = (options.spawnPty ?? pty.spawn)(start.file, start.args, {
      name: info.term || 'xterm-256color',
      cols: Math.max(1, info.cols || 80),
      rows: Math.max(1, info.rows || 24),
      cwd: options.home,
      env,
      // Buffers, not strings: the bytes go to the client as they are, never re-decoded here.
      encoding: null
    })
  } catch (error) {
    // node-pty throws before any process exists (macOS without spawn-helper's execute bit, a
    // shell missing on Windows). Answer as sshd does for a shell that cannot run: the reason on
    // the terminal and an exit status, so the client shows it and does not reconnect to the same
    // failure; throwing here would drop the whole connection instead.
    const message = shellStartFailure(shell, error)
    options.log(`ssh: ${message}`)
    channel.write(`${message}\r\n`)
    finish(channel, SHELL_START_FAILED, undefined)
    return { resize: () => {}, signal: () => {}, kill: () => {} }
  }
  const ptsPath = (child as { ptsName?: unknown }).ptsName
  if (stall && typeof ptsPath === 'string') stall.started(ptsPath)
  pumpWithBackpressure(child, channel)
  keepTailOnExit(child)
  channel.on('data', (data: Buffer) => child.write(data))
  child.onExit(({ exitCode, signal }) => finish(channel, exitCode, signal))
  channel.on('close', () => safely(() => child.kill()))
  return {
    resize: (cols, rows) => safely(() => child.resize(Math.max(1, cols), Math.max(1, rows))),
    signal: (name) => safely(() => child.kill(`SIG${name}`)),
    kill: () => safely(() => child.kill())
  }
}

function runInPipes(
  channel: ServerChannel,
  file: string,
  args: string[],
  env: Record<string, string>,
  options: SessionOptions,
  between?: SftpJail
): Running {
  const child = spawnChild(file, args, { cwd: options.home, env, stdio: 'pipe' })
  // end: false, so the exit status can still be sent after the output: the channel ends in finish().
  if (between) {
    child.stdout.pipe(between.toClient).pipe(channel, { end: false })
    channel.pipe(between.toServer).pipe(child.stdin)
    // A client that breaks the protocol ends its own session, never the emulator.
    for (const side of [between.toClient, between.toServer]) side.on('error', () => safely(() => child.kill()))
  } else {
    child.stdout.pipe(channel, { end: false })
    channel.pipe(child.stdin)
  }
  child.stderr.pipe(channel.stderr, { end: false })
  child.stdin.on('error', () => {}) // the command may exit without reading its input
  child.on('error', (error) => {
    const message = shellStartFailure(file, error)
    options.log(`ssh: ${message}`)
    channel.stderr.write(`${message}\r\n`)
    finish(channel, SHELL_START_FAILED, undefined)
  })
  child.on('close', (code, signal) => finish(channel, code ?? 0, signal ?? undefined))
  channel.on('close', () => child.kill())
  return {
    resize: () => {},
    signal: (name) => safely(() => child.kill(`SIG${name}` as NodeJS.Signals)),
    kill: () => safely(() => child.kill())
  }
}

function finish(channel: ServerChannel, exitCode: number, signal: number | string | undefined): void {
  if (channel.destroyed) return
  const signalName = typeof signal === 'number' ? signalNameOf(signal) : signal
  if (signalName) channel.exit(signalName.replace(/^SIG/, ''), false, '')
  else channel.exit(exitCode)
  channel.end()
}

function signalNameOf(signal: number): string | undefined {
  if (signal === 0) return undefined
  return Object.entries(osConstants.signals).find(([, value]) => value === signal)?.[0]
}

/** The child may already be gone (exited between the event and our call). */
function safely(action: () => void): void {
  try {
    action()
  } catch {
    /* already exited */
  }
}
