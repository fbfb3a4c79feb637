/**
 * One SSH connection to one instance: handshake with the host key checked (host-key-check.ts),
 * authentication walked in order (auth.ts), keepalive, and a `closed` promise that says why it
 * ended. Shells and exec channels are opened on it by terminal-session.ts and the tests.
 */
import ssh2, { type Client, type ClientChannel, type ConnectConfig, type PseudoTtyOptions } from 'ssh2'
import type { Clock, TimerHandle } from '../../../shared/clock'
import { createAuthHandler, type AuthCandidate } from '../auth/auth'
import { checkHostKey, hostKeyAlgorithmsFor, type HostKeyRefusal } from '../host-keys/host-key-check'
import type { KnownHostsStore } from '../host-keys/known-hosts-store'
import type { PromptQuestion } from '../auth/prompts'
import { limitReceiveWindow } from '../data-path/receive-window'
import { probeRoundTrips } from '../data-path/round-trip'
import { watchShellExit } from '../data-path/shell-exit'
import type { PromptAnswer } from '../../../shared/contract-ssh'
import type { SshTarget } from '../target'
import { serverLine } from '../../../shared/untrusted-text'

// ssh2 is CommonJS: Node's ESM loader (tsx, the web shell) offers only its default export.
const { Client: SshClient } = ssh2

export const KEEPALIVE_INTERVAL_MS = 15_000
export const KEEPALIVE_COUNT_MAX = 3
export const CONNECT_TIMEOUT_MS = 20_000

/** Why connecting failed; `retryable` is false when trying again without the user is pointless. */
export type SshConnectFailure = 'auth' | 'host-key' | 'host-key-unknown' | 'needs-passphrase' | 'cancelled' | 'network' | 'timeout'

export class SshConnectError extends Error {
  constructor(
    /**
     * `host-key-unknown` and `needs-passphrase` happen only to background connections, which
     * never ask the user (see ConnectOptions.ask).
     */
    readonly reason: SshConnectFailure,
    message: string,
    readonly retryable: boolean,
    readonly refusal?: HostKeyRefusal
  ) {
    super(message)
    this.name = 'SshConnectError'
  }
}

export interface ConnectOptions {
  target: SshTarget
  /** The instance the cloud says answers at the target (host keys are recorded per instance). */
  instanceId?: string
  knownHosts: KnownHostsStore
  acceptedOnce: Set<string>
  candidates: AuthCandidate[]
  readKey: (path: string) => Promise<Buffer | null>
  passphrases: Map<string, string>
  /**
   * Asks the user (host key, passphrase, password). Absent: a background connection (a restored
   * tunnel, a probe) that never asks; it fails with `host-key-unknown` or `needs-passphrase`
   * where a window would have asked.
   */
  ask?: ((question: PromptQuestion) => Promise<PromptAnswer>) | undefined
  tell: (question: PromptQuestion) => void
  clock: Clock
  keepaliveIntervalMs?: number
  keepaliveCountMax?: number
  /** Covers TCP connect, handshake and authentication, but not time spent waiting on the user. */
  connectTimeoutMs?: number
}

export interface PtyRequest {
  cols: number
  rows: number
  term?: string
}

/** How long a link has to answer the probe after a wake before it counts as lost. */
export const PROBE_TIMEOUT_MS = 8_000

export class SshConnection {
  /** Resolves once, with a line for the user, when the connection ends for any reason. */
  readonly closed: Promise<string>
  private ending = false
  /** The quickest round trip seen (round-trip.ts); undefined: none yet. */
  private roundTrip: number | undefined
  private readonly shells = new Set<ClientChannel>()

  constructor(
    readonly client: Client,
    readonly target: SshTarget,
    closed: Promise<string>,
    /** The TCP connect time, if it was seen: the first estimate of the round trip. */
    connectMs?: number
  ) {
    this.closed = closed
    if (connectMs !== undefined) this.noteRoundTrip(connectMs)
  }

  get roundTripMs(): number | undefined {
    return this.roundTrip
  }

  /** A round-trip sample: a quicker one resizes the open shells' receive windows. */
  noteRoundTrip(ms: number): void {
    if (this.roundTrip !== undefined && ms >= this.roundTrip) return
    this.roundTrip = ms
    for (const channel of this.shells) limitReceiveWindow(channel, ms)
  }

  /** A shell channel whose receive window fits this link (receive-window.ts: a quick Ctrl-C). */
  shell(pty: PtyRequest): Promise<ClientChannel> {
    const window: PseudoTtyOptions = { cols: pty.cols, rows: pty.rows, term: pty.term ?? 'xterm-256color' }
    return new Promise((resolve, reject) => {
      this.client.shell(window, (error, channel) => {
        if (error) return reject(error)
        watchShellExit(channel)
        limitReceiveWindow(channel, this.roundTrip)
        this.shells.add(channel)
        channel.once('close', () => this.shells.delete(channel))
        resolve(channel)
      })
    })
  }

  /**
   * A command line's session (`SshRun`), or a persistent tab's tmux client: the command, or the
   * login shell, with a pseudo-terminal only when asked (and then the shell's quick-Ctrl-C receive
   * window). Its exit status is watched from ssh2's callback on: `exit 7` answers in the same read
   * as the channel's confirmation.
   */
  run(command: string | undefined, pty: PtyRequest | undefined): Promise<ClientChannel> {
    const window: PseudoTtyOptions | false = pty ? { cols: pty.cols, rows: pty.rows, term: pty.term ?? 'xterm-256color' } : false
    return new Promise((resolve, reject) => {
      const opened = (error: Error | undefined, channel: ClientChannel): void => {
        if (error) return reject(error)
        watchShellExit(channel)
        if (pty) {
          limitReceiveWindow(channel, this.roundTrip)
          this.shells.add(channel)
          channel.once('close', () => this.shells.delete(channel))
        }
        resolve(channel)
      }
      if (command === undefined) this.client.shell(window, opened)
      else this.client.exec(command, window ? { pty: window } : {}, opened)
    })
  }

  exec(command: string): Promise<ClientChannel> {
    return new Promise((resolve, reject) => {
      this.client.exec(command, (error, channel) => {
        if (error) return reject(error)
        watchShellExit(channel)
        resolve(channel)
      })
    })
  }

  /**
   * After a sleep: does the link still answer? A channel request answered (either way) within
   * `timeoutMs` says it does; otherwise the connection is dropped, as lost, so its terminals and
   * tunnels reconnect now instead of after the keepalives give up (15 s × 3).
   */
  probe(clock: Clock, timeoutMs = PROBE_TIMEOUT_MS): void {
    if (this.ending) return
    let answered = false
    const timer = clock.setTimeout(() => {
      if (!answered && !this.ending) this.client.destroy()
    }, timeoutMs)
    this.client.exec('true', (error, channel) => {
      answered = true
      clock.clearTimeout(timer)
      if (error) return
      channel.resume()
      channel.stderr.resume()
    })
  }

  get isEnding(): boolean {
    return this.ending
  }

  end(): void {
    this.ending = true
    this.client.end()
  }
}

export function connect(options: ConnectOptions): Promise<SshConnection> {
  const { target, clock } = options
  const client = new SshClient()
  const timeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS
  let refusal: HostKeyRefusal | undefined
  let cancelled = false
  let settled = false
  let timer: TimerHandle | undefined
  let waitingOnUser = 0

  const armTimer = (): void => {
    clock.clearTimeout(timer)
    timer = waitingOnUser > 0 ? undefined : clock.setTimeout(onTimeout, timeoutMs)
  }
  // The clock stops while a dialog is open: a user reading a fingerprint is not a dead server.
  const askUser = options.ask
  const ask = askUser
    ? async (question: PromptQuestion): Promise<PromptAnswer> => {
        waitingOnUser++
        armTimer()
        try {
          return await askUser(question)
        } finally {
          waitingOnUser--
          armTimer()
        }
      }
    : undefined
  /** Background only: encrypted keys skipped because nobody could be asked their passphrase. */
  const locked: string[] = []

  let rejectConnect: (error: SshConnectError) => void = () => {}
  const onTimeout = (): void => {
    rejectConnect(
      new SshConnectError(
        'timeout',
        `${where(target)} did not answer within ${Math.round(timeoutMs / 1000)} s. Check that the instance is running, then reconnect.`,
        true
      )
    )
    client.destroy()
  }

  return new Promise<SshConnection>((resolve, reject) => {
    rejectConnect = (error) => {
      if (settled) return
      settled = true
      clock.clearTimeout(timer)
      reject(error)
    }
    let resolveClosed: (reason: string) => void = () => {}
    const closed = new Promise<string>((done) => (resolveClosed = done))
    let lastError: (Error & { level?: string }) | undefined
    // A monotonic measurement, not the injected clock: it sizes a window, it schedules nothing.
    let connectStartedAt: number | undefined
    let roundTripMs: number | undefined
    client.on('connect', () => {
      if (connectStartedAt !== undefined) roundTripMs = performance.now() - connectStartedAt
    })

    client.on('ready', () => {
      if (settled) return
      settled = true
      clock.clearTimeout(timer)
      const connection = new SshConnection(client, target, closed, roundTripMs)
      void probeRoundTrips(client, (ms) => connection.noteRoundTrip(ms))
      resolve(connection)
    })
    client.on('error', (error: Error & { level?: string }) => {
      lastError = error
      if (!settled) rejectConnect(classify(error, target, refusal, cancelled, locked))
    })
    client.on('close', () => {
      if (!settled) rejectConnect(classify(lastError ?? new Error('connection closed'), target, refusal, cancelled, locked))
      resolveClosed(closeReason(lastError))
    })

    void (async () => {
      const known = await options.knownHosts.knownKeyTypes(target.host, target.port).catch(() => [])
      const preferred = known.flatMap(hostKeyAlgorithmsFor)
      const config: ConnectConfig = {
        host: target.host,
        port: target.port,
        username: target.username,
        // Our own timer (above) pauses while the user answers a prompt; ssh2's cannot.
        readyTimeout: 0,
        keepaliveInterval: options.keepaliveIntervalMs ?? KEEPALIVE_INTERVAL_MS,
        keepaliveCountMax: options.keepaliveCountMax ?? KEEPALIVE_COUNT_MAX,
        ...(preferred.length > 0 ? { algorithms: { serverHostKey: { remove: preferred, prepend: preferred } as never } } : {}),
        hostVerifier: (keyBlob: Buffer, verify: (valid: boolean) => void) => {
          checkHostKey(
            {
              host: target.host,
              port: target.port,
              instanceId: options.instanceId,
              store: options.knownHosts,
              acceptedOnce: options.acceptedOnce,
              ask,
              tell: options.tell
            },
            keyBlob
          )
            .then((result) => {
              if (result) refusal = result
              verify(result === null)
            })
            .catch((error: unknown) => {
              refusal = { reason: 'rejected', message: `The app could not check the host key of ${where(target)}: ${String(error)}` }
              verify(false)
            })
        },
        authHandler: createAuthHandler({
          host: target.host,
          username: target.username,
          candidates: options.candidates,
          readKey: options.readKey,
          passphrases: options.passphrases,
          ask,
          locked,
          onCancel: () => {
            cancelled = true
          }
        })
      }
      armTimer()
      connectStartedAt = performance.now()
      client.connect(config)
      // No Nagle: a keystroke goes at once rather than after the last packet's ACK (OpenSSH sets
      // TCP_NODELAY for interactive sessions too), and a bulk burst's last packet does not wait
      // for a delayed ACK before the next request can go.
      client.setNoDelay(true)
    })().catch((error: unknown) =>
      rejectConnect(new SshConnectError('network', `Could not start connecting to ${where(target)}: ${String(error)}`, true))
    )
  })
}

function where(target: SshTarget): string {
  return `${target.host}:${target.port}`
}

function classify(
  error: Error & { level?: string; code?: string },
  target: SshTarget,
  refusal: HostKeyRefusal | undefined,
  cancelled: boolean,
  locked: readonly string[]
): SshConnectError {
  if (refusal) return new SshConnectError(refusal.reason === 'unknown' ? 'host-key-unknown' : 'host-key', refusal.message, false, refusal)
  if (cancelled) return new SshConnectError('cancelled', `Connecting to ${where(target)} was cancelled.`, false)
  if (error.level === 'client-authentication' && locked.length > 0) {
    return new SshConnectError(
      'needs-passphrase',
      `Your SSH key ${locked[0]} needs its passphrase. Open a terminal to the instance once and type it; Cloud Tray keeps it until you quit.`,
      false
    )
  }
  if (error.level === 'client-authentication') {
    return new SshConnectError(
      'auth',
      `${target.username}@${where(target)} did not accept any of your keys or passwords. Check the SSH key in Settings (or load it into your SSH agent), then press Reconnect.`,
      false
    )
  }
  if (error.level === 'client-timeout')
    return new SshConnectError('timeout', `${where(target)} stopped answering. Reconnect when the instance is reachable.`, true)
  const code = error.code ? ` (${serverLine(String(error.code), 40)})` : ''
  // What the server or the network said is one line of its words, shown as text (#21).
  return new SshConnectError(
    'network',
    `Could not reach ${where(target)}${code}: ${serverLine(error.message, 300)}. Check that the instance is running and your network is up.`,
    true
  )
}

function closeReason(error: (Error & { level?: string }) | undefined): string {
  if (!error) return 'connection closed'
  if (error.level === 'client-timeout' || /keepalive/i.test(error.message)) return 'the server stopped answering keepalives'
  return `connection lost: ${serverLine(error.message, 300)}`
}
