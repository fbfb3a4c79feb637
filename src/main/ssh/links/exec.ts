/**
 * `exec` on the shared links (links.ts): a command run without a PTY, its output collected up to
 * a bound and its exit code answered, or an ExecError whose reason a background caller (the GPU
 * probe, "Open in …"'s home lookup) acts on. The ExecUser is the link user behind it: it holds
 * the instance's link while commands run and a while after, and never asks the user anything.
 */
import type { ClientChannel } from 'ssh2'
import type { Clock, TimerHandle } from '../../../shared/clock'
import { serverLine } from '../../../shared/untrusted-text'
import { shellExitOf, shellSignalOf } from '../data-path/shell-exit'
import type { SshConnectFailure, SshConnection } from './connection'
import type { LinkStatus, LinkUser } from './link-user'
import type { SshTarget } from '../target'

export interface ExecOptions {
  /** Gives up (closing the channel) after this long; default 30 s. */
  timeoutMs?: number
  /**
   * Output kept per stream. A command that prints more is not read further: its channel is closed
   * and the result says `truncated` (what an instance prints is untrusted, #21). Default 1 MiB.
   */
  maxOutputBytes?: number
}

export interface ExecResult {
  /** null when the command ended by a signal or the server did not say. */
  exitCode: number | null
  signal?: string
  stdout: string
  stderr: string
  /** The command printed more than `maxOutputBytes` on a stream; only that much was kept. */
  truncated?: true
}

export type ExecFailure = SshConnectFailure | 'not-running' | 'instance-stopped' | 'reconnecting' | 'exec'

/** Why `exec` could not run the command, in words, for a background caller to log or show. */
export class ExecError extends Error {
  constructor(
    readonly reason: ExecFailure,
    message: string
  ) {
    super(message)
    this.name = 'ExecError'
  }
}

export const DEFAULT_EXEC_IDLE_MS = 3 * 60_000
const DEFAULT_EXEC_TIMEOUT_MS = 30_000
const DEFAULT_EXEC_OUTPUT = 1024 * 1024

/**
 * The background user behind `exec`: holds the link while commands run and for `idleMs` after
 * the last one, never asks the user, and turns the link's failures into ExecErrors.
 */
export class ExecUser implements LinkUser {
  readonly askClient = undefined
  onIdle: () => void = () => {}
  private waiters: { resolve: (connection: SshConnection) => void; reject: (error: ExecError) => void }[] = []
  private idleTimer: TimerHandle | undefined
  private current: SshConnection | undefined

  constructor(
    private readonly clock: Clock,
    private readonly idleMs: number
  ) {}

  /**
   * Runs `command` on `live`, or on the next connection once the link is up; the timeout counts
   * the wait for the connection too.
   */
  async run(live: SshConnection | undefined, target: SshTarget, command: string, options: ExecOptions): Promise<ExecResult> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS
    const startedAt = this.clock.now()
    const connection = await withTimeout(
      this.clock,
      this.ready(live),
      timeoutMs,
      () => new ExecError('timeout', `${target.host}:${target.port} did not let Cloud Tray in within ${Math.round(timeoutMs / 1000)} s.`)
    )
    const left = Math.max(1, timeoutMs - (this.clock.now() - startedAt))
    return runExec(connection, command, { ...options, timeoutMs: left }, this.clock)
  }

  /** The connection to run on: the live one, or the next one once the link is up. */
  private ready(live: SshConnection | undefined): Promise<SshConnection> {
    this.hold()
    const connection = live ?? this.current
    if (connection) return Promise.resolve(connection)
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }))
  }

  connected(connection: SshConnection): void {
    this.current = connection
    const waiters = this.waiters
    this.waiters = []
    for (const waiter of waiters) waiter.resolve(connection)
  }

  disconnected(): void {
    this.current = undefined
  }

  status(status: LinkStatus): void {
    if (status.state === 'connecting' || status.state === 'connected') return
    // A background caller does not wait out a backoff: it hears why now and tries again later,
    // and the link is not kept retrying on its behalf.
    const reason: ExecFailure = status.state === 'reconnecting' ? 'reconnecting' : (status.reason ?? 'network')
    // Not the link's "Retrying in 2 s": this caller leaves the link, so nothing retries for it.
    this.fail(new ExecError(reason, status.cause ?? status.message))
    this.release()
  }

  /** The link was dropped under it (instance stopped, app quitting). */
  stopped(): void {
    this.fail(new ExecError('instance-stopped', 'The instance stopped, so the command did not run.'))
    this.clock.clearTimeout(this.idleTimer)
    this.idleTimer = undefined
  }

  private fail(error: ExecError): void {
    const waiters = this.waiters
    this.waiters = []
    for (const waiter of waiters) waiter.reject(error)
  }

  /** Holds the link `idleMs` from now (each command, and links.ts keepWarm). */
  hold(): void {
    this.clock.clearTimeout(this.idleTimer)
    this.idleTimer = this.clock.setTimeout(() => this.release(), this.idleMs)
  }

  private release(): void {
    this.clock.clearTimeout(this.idleTimer)
    this.idleTimer = undefined
    this.onIdle()
  }
}

function runExec(connection: SshConnection, command: string, options: ExecOptions, clock: Clock): Promise<ExecResult> {
  const limit = options.maxOutputBytes ?? DEFAULT_EXEC_OUTPUT
  const timeoutMs = options.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS
  return new Promise((resolve, reject) => {
    let settled = false
    /** Closed on timeout too, so the remote command does not linger. */
    let channel: ClientChannel | undefined
    const timer = clock.setTimeout(() => {
      channel?.close()
      settle(() => reject(new ExecError('timeout', `The command did not finish within ${Math.round(timeoutMs / 1000)} s.`)))
    }, timeoutMs)
    const settle = (action: () => void): void => {
      if (settled) return
      settled = true
      clock.clearTimeout(timer)
      action()
    }
    connection.exec(command).then(
      (opened) => {
        if (settled) {
          opened.close()
          return
        }
        channel = opened
        const out = new Collector(limit)
        const err = new Collector(limit)
        // The exit status was watched from the channel's opening (connection.ts, shell-exit.ts).
        const result = (): ExecResult => {
          const signal = shellSignalOf(opened)?.slice(0, 32)
          return {
            exitCode: shellExitOf(opened) ?? null,
            ...(signal ? { signal } : {}),
            stdout: out.text(),
            stderr: err.text(),
            ...(out.over || err.over ? { truncated: true as const } : {})
          }
        }
        // Past the limit nothing more is read: the answer is settled now and the channel closed.
        const collect = (collector: Collector, chunk: Buffer): void => {
          if (settled) return
          collector.push(chunk)
          if (!collector.over) return
          settle(() => resolve(result()))
          opened.close()
        }
        opened.on('data', (chunk: Buffer) => collect(out, chunk))
        opened.stderr.on('data', (chunk: Buffer) => collect(err, chunk))
        opened.on('close', () => settle(() => resolve(result())))
      },
      (error: unknown) =>
        settle(() => reject(new ExecError('exec', `The instance refused to run the command: ${serverLine((error as Error).message, 300)}`)))
    )
  })
}

function withTimeout<T>(clock: Clock, promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(error()), ms)
    promise.then(
      (value) => {
        clock.clearTimeout(timer)
        resolve(value)
      },
      (failure: unknown) => {
        clock.clearTimeout(timer)
        reject(failure)
      }
    )
  })
}

class Collector {
  private readonly chunks: Buffer[] = []
  private size = 0
  /** More came than the limit. */
  over = false
  constructor(private readonly limit: number) {}
  push(chunk: Buffer): void {
    if (this.size + chunk.length > this.limit) this.over = true
    if (this.size >= this.limit) return
    const kept = chunk.subarray(0, this.limit - this.size)
    this.chunks.push(kept)
    this.size += kept.length
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8')
  }
}
