/**
 * The terminals: tabs by instance. Each tab is a user of its instance's shared connection (links/links.ts):
 * the first tab (or tunnel, or files panel) makes it, the last to leave ends it. When it drops,
 * every tab says "connection lost — reconnecting in N s" while the link retries with backoff; an
 * authentication or host-key failure is never retried without the user, and `reconnect` always
 * works.
 *
 * A tab opened with a tmux session (`open(…, session)`) is persistent: its shell is that session's
 * tmux client (sessions/remote-scripts.ts), so what runs in it survives the connection, the app
 * and the laptop's sleep. After every reconnect the tab attaches to the same session again, and
 * what the session printed meanwhile comes first (its history, pulled into the scrollback before
 * the screen tmux draws: terminal-session.ts `hold`). Closing the tab leaves the session running,
 * unless the user chose "End it". When the instance has no tmux the tab runs a plain shell and
 * says so once (`persistence`). A plain tab gets a new shell in place after a reconnect, with its
 * scrollback kept.
 *
 * A command line's session (`run`, contract-ssh.ts) is a tab that runs once: its command (or
 * login shell) on the first connection it is handed, never again; it closes with the exit
 * status, or, if the connection drops under it, without one. When it ends on a live connection,
 * the link is kept warm for the next one (links.ts keepWarm), so `cloud-tray ssh box -- true`
 * run again skips the SSH handshake, as OpenSSH's ControlPersist does.
 */
import { randomUUID } from 'node:crypto'
import type { Clock } from '../../shared/clock'
import type { Persistence, SessionRef, SshRun, TerminalState, TerminalStatus } from '../../shared/contract-ssh'
import { AppError } from '../app-error'
import type { ClientId, EventSink } from '../core-types'
import type { SshConnection } from './links/connection'
import type { LinkLease, LinkStatus, LinkUser } from './links/link-user'
import type { SshLinks } from './links/links'
import { plainBytes } from './data-path/plain-bytes'
import { TerminalSession, type TerminalStats } from './data-path/terminal-session'
import type { ParseWindowBounds } from './data-path/flow-control'
import { attachOursCommand, attachUserCommand, type TmuxProbe } from './sessions/remote-scripts'
import { isOurSession, newLobbyName } from './sessions/session-names'
import { NO_TMUX_MESSAGE, TmuxSessions } from './sessions/tmux-sessions'
import { signalName } from './data-path/shell-exit'
import { serverLine } from '../../shared/untrusted-text'

export interface TerminalsOptions {
  /** The shared connections (the wing's): each tab is a user of its instance's link. */
  links: SshLinks
  clock: Clock
  /** `ssh.data` and `ssh.status`, each to the window that opened the tab. */
  emit: EventSink
  /** tmux on the instances (the wing's, shared with the instance panel's list); default: one over `links`. */
  tmux?: TmuxSessions
  /** Flow control's window bounds (data-path/flow-control.ts); tests and benchmarks change them. */
  parseWindow?: ParseWindowBounds
}

/** Erases the screen and the scrollback: a re-attached session's history replaces what the tab showed. */
const CLEAR_ALL = '\x1b[0m\x1b[H\x1b[2J\x1b[3J'

const LOST_WHILE_RUNNING = 'the connection to the instance was lost while the command ran'

export class Terminals {
  private readonly terminals = new Map<string, TerminalTab>()
  readonly tmux: TmuxSessions
  private disposed = false

  constructor(private readonly options: TerminalsOptions) {
    this.tmux = options.tmux ?? new TmuxSessions(options.links)
  }

  /** Terminal tabs open now (a restart to update waits for them). */
  openCount(): number {
    return this.terminals.size
  }

  /**
   * Opens a tab: answers its id at once; connection progress follows as `ssh.status`. With
   * `session`, the tab's shell is that tmux session (ours is made if it is gone); with `run`, a
   * command line's session that runs once (never in tmux).
   */
  open(
    instanceId: string,
    cols: number,
    rows: number,
    clientId: ClientId,
    session?: SessionRef,
    run?: SshRun
  ): { terminalId: string; session?: SessionRef } {
    if (session?.socket === 'ours' && !isOurSession(session.name))
      throw new AppError('not-allowed', 'That is not a session Cloud Tray made.')
    if (session && run) throw new AppError('not-allowed', 'A command line’s session does not attach to a tmux session.')
    const terminalId = `t-${randomUUID()}`
    const { emit } = this.options
    const terminal = new TerminalSession({
      id: terminalId,
      instanceId,
      clientId,
      cols,
      rows,
      clock: this.options.clock,
      send: (data) => emit('ssh.data', { terminalId, data: plainBytes(data) }, clientId),
      ...(run && !run.pty
        ? { sendStderr: (data: Uint8Array) => emit('ssh.data', { terminalId, data: plainBytes(data), stream: 'stderr' }, clientId) }
        : {}),
      ...(run ? { onWritten: (bytes: number) => emit('ssh.written', { terminalId, bytes }, clientId) } : {}),
      onShellExit: (_session, code, signal) => void this.shellEnded(tab, code, signalName(signal)),
      onChannelLost: () => this.channelLost(tab),
      ...(this.options.parseWindow ? { parseWindow: this.options.parseWindow } : {})
    })
    const tab = new TerminalTab(terminal, session, this.tmux, (state, message, extra) => this.status(terminal, state, message, extra), run)
    // Throws (in the user's words) before anything is kept when the instance cannot be reached.
    tab.lease = this.options.links.acquire(instanceId, tab)
    this.terminals.set(terminalId, tab)
    return { terminalId, ...(session ? { session } : {}) }
  }

  input(terminalId: string, data: string | Uint8Array, clientId: ClientId): void {
    this.owned(terminalId, clientId).session.write(data)
  }

  /** A command line's stdin ended. */
  eof(terminalId: string, clientId: ClientId): void {
    this.owned(terminalId, clientId).session.endInput()
  }

  resize(terminalId: string, cols: number, rows: number, clientId: ClientId): void {
    this.owned(terminalId, clientId).session.resize(cols, rows)
  }

  ack(terminalId: string, bytes: number, clientId: ClientId, parseMs?: number): void {
    this.owned(terminalId, clientId).session.ack(bytes, parseMs)
  }

  /**
   * Closes a tab. Its tmux session keeps running ("Leave it running") unless `end` ("End it"),
   * which ends it on the instance first.
   */
  async close(terminalId: string, clientId: ClientId, end = false): Promise<void> {
    const tab = this.owned(terminalId, clientId)
    const session = tab.tmuxSession
    try {
      // Ended while the tab still holds the link, so this does not log in again just for it.
      if (end && session) await this.tmux.end(tab.session.instanceId, session)
    } finally {
      this.release(tab)
    }
  }

  /** Connects again now: after a failure, during a backoff wait, or to replace a live shell. */
  reconnect(terminalId: string, clientId: ClientId): void {
    const tab = this.owned(terminalId, clientId)
    if (tab.run) throw new AppError('not-allowed', 'A command runs once; run it again for a new one.')
    // A tab whose shell ended rejoins its instance's connection (made anew if it was the last).
    if (!tab.lease) tab.lease = this.options.links.acquire(tab.session.instanceId, tab)
    tab.session.finished = false
    tab.lease.reconnect()
  }

  /** For tests and benchmarks: the data path's counters of one tab. */
  stats(terminalId: string): TerminalStats | undefined {
    return this.terminals.get(terminalId)?.session.stats()
  }

  /** The window went away: its tabs close (their tmux sessions keep running; its prompts are the links' to cancel). */
  clientGone(clientId: ClientId): void {
    for (const tab of [...this.terminals.values()]) if (tab.session.clientId === clientId) this.release(tab)
  }

  dispose(): void {
    this.disposed = true
    for (const tab of [...this.terminals.values()]) this.release(tab)
  }

  // ------------------------------------------------------------------ internals

  private owned(terminalId: string, clientId: ClientId): TerminalTab {
    const tab = this.terminals.get(terminalId)
    if (!tab || tab.session.clientId !== clientId) {
      throw new AppError('not-allowed', 'That terminal is closed. Open a new one from the instance.')
    }
    return tab
  }

  private async shellEnded(tab: TerminalTab, exitCode: number | null, signal: string | undefined): Promise<void> {
    tab.session.finished = true
    const suffix =
      exitCode !== null ? ` (exit ${exitCode})` : signal ? ` (killed by ${/^[A-Z0-9]+$/.test(signal) ? `SIG${signal}` : signal})` : ''
    const extra: Partial<TerminalStatus> = { ...(exitCode !== null ? { exitCode } : {}), ...(signal ? { signal } : {}) }
    if (tab.run) {
      this.status(tab.session, 'closed', `${tab.run.command === undefined ? 'session' : 'command'} ended${suffix}`, extra)
      // The next command line's session on this instance skips the handshake.
      if (tab.lease?.connection) this.options.links.keepWarm(tab.session.instanceId)
      tab.leave()
      return
    }
    const session = tab.tmuxSession
    // A tmux client ends when its session ends, and also when it is detached (from another
    // terminal, or the user's own prefix key): only the instance can tell which.
    const detached = session?.socket === 'ours' && (await this.tmux.exists(tab.session.instanceId, session.name).catch(() => false))
    if (!this.terminals.has(tab.session.id)) return
    if (detached)
      this.status(tab.session, 'closed', 'detached — the session keeps running on the instance; press Reconnect to attach again')
    else if (session && exitCode !== null && exitCode !== 0)
      // tmux itself could not run (the login shell or tmux failed to start): say how it ended.
      this.status(tab.session, 'closed', `the session could not start (exit ${exitCode}) — press Reconnect to try again`, extra)
    else if (session) this.status(tab.session, 'closed', 'the session ended — press Reconnect for a new one')
    else {
      this.status(tab.session, 'closed', `session ended${suffix} — press Reconnect for a new shell`, extra)
    }
    // The tab stays open (its scrollback is the user's) but no longer holds the connection.
    tab.leave()
  }

  private channelLost(tab: TerminalTab): void {
    const connection = tab.shellConnection
    // If the connection is going down, the link tells every tab at once.
    setImmediate(() => {
      const { session } = tab
      if (session.finished || session.hasChannel) return
      const connectionUp = connection !== undefined && tab.lease?.connection === connection
      if (tab.run) {
        // A command ends with its channel, whatever happens to the connection.
        session.finished = true
        this.status(session, 'closed', connectionUp ? 'the server closed the session without an exit status' : LOST_WHILE_RUNNING)
        tab.leave()
        return
      }
      if (!connectionUp) return
      session.finished = true
      this.status(session, 'closed', 'the server closed this shell — press Reconnect for a new one')
      tab.leave()
    })
  }

  private release(tab: TerminalTab): void {
    tab.session.close()
    this.terminals.delete(tab.session.id)
    tab.leave()
  }

  private status(session: TerminalSession, state: TerminalState, message: string, extra: Partial<TerminalStatus> = {}): void {
    if (this.disposed && state !== 'closed') return
    session.state = state
    const payload: TerminalStatus = { terminalId: session.id, state, message, ...extra }
    this.options.emit('ssh.status', payload, session.clientId)
  }
}

/** One tab as a user of its instance's link: a shell (or its tmux session) on each connection it is handed. */
class TerminalTab implements LinkUser {
  lease: LinkLease | undefined
  /** The connection the current shell runs on. */
  shellConnection: SshConnection | undefined
  /** Set once the instance turned out to have no tmux we can use: the tab runs plain shells. */
  private plainBecause: Persistence | undefined

  constructor(
    readonly session: TerminalSession,
    /** The tmux session asked for; undefined: a plain shell. */
    private readonly wanted: SessionRef | undefined,
    private readonly tmux: TmuxSessions,
    private readonly report: (state: TerminalState, message: string, extra?: Partial<TerminalStatus>) => void,
    /** A command line's session: runs once (see Terminals). */
    readonly run?: SshRun
  ) {}

  get askClient(): ClientId {
    return this.session.clientId
  }

  /** The tmux session this tab lives in, while it does. */
  get tmuxSession(): SessionRef | undefined {
    return this.plainBecause ? undefined : this.wanted
  }

  connected(connection: SshConnection, requested: boolean): void {
    if (this.session.finished) return
    if (requested) {
      // Reconnect on a live connection: this tab gets a new shell (or attaches again); the other tabs keep theirs.
      this.session.dropChannel()
      this.report('connecting', this.wanted ? 'attaching again…' : 'starting a new shell…')
    }
    void this.openShell(connection)
  }

  disconnected(): void {
    this.shellConnection = undefined
    this.session.detach()
    if (this.run && this.session.everConnected && !this.session.finished) {
      // A command cannot be picked up again on a new connection: it ended with the connection.
      this.session.finished = true
      this.report('closed', LOST_WHILE_RUNNING)
      setImmediate(() => this.leave())
    }
  }

  status(status: LinkStatus): void {
    if (this.session.finished) return
    const keeps =
      this.tmuxSession && this.session.everConnected && status.state === 'reconnecting'
        ? ' — the session keeps running on the instance'
        : ''
    this.report(status.state === 'failed' ? 'failed' : status.state, `${status.message}${keeps}`, {
      ...(status.retryAt !== undefined ? { retryAt: status.retryAt } : {}),
      ...(status.needsUser ? { needsUser: true } : {})
    })
  }

  /** Leaves the link (ending the connection if it was the last user), keeping the tab reconnectable. */
  leave(): void {
    this.lease?.release()
    this.lease = undefined
    this.shellConnection = undefined
  }

  private async openShell(connection: SshConnection): Promise<void> {
    const { session, run } = this
    const instanceId = session.instanceId
    try {
      if (run && session.everConnected) return
      const tmux = !run && this.wanted && !this.plainBecause ? await this.tmuxOrPlain() : undefined
      if (this.stale(connection)) return
      const wanted = this.wanted
      let channel
      let hold: ((first: Buffer) => Promise<Uint8Array | undefined>) | undefined
      if (run) {
        const size = { cols: session.cols, rows: session.rows }
        channel = await connection.run(run.command, run.pty ? { ...size, ...(run.term ? { term: run.term } : {}) } : undefined)
      } else if (tmux && wanted?.socket === 'ours') {
        const lobby = newLobbyName()
        channel = await connection.run(attachOursCommand(wanted.name, lobby), session)
        // Its first bytes: tmux has drawn the lobby, so the client is idle there and can be moved in.
        hold = () => this.history(instanceId, lobby, wanted.name)
      } else if (tmux && wanted) {
        const id = await this.tmux.idOf(instanceId, wanted)
        if (this.stale(connection)) return
        if (id === undefined) {
          session.finished = true
          this.report('closed', `the tmux session «${wanted.name}» is no longer on the instance`, { needsUser: true })
          this.leave()
          return
        }
        channel = await connection.run(attachUserCommand(id), session)
      } else if (wanted?.socket === 'user') {
        session.finished = true
        this.report('failed', `This tab attaches to your tmux session «${wanted.name}», but the instance has no tmux now.`, {
          needsUser: true
        })
        this.leave()
        return
      } else {
        channel = await connection.shell({ cols: session.cols, rows: session.rows })
      }
      if (this.stale(connection)) {
        channel.close()
        return
      }
      const reconnected = session.everConnected
      this.shellConnection = connection
      session.attach(channel, hold)
      const target = connection.target
      const persistence: Persistence | undefined = tmux && wanted ? { kind: 'tmux', session: wanted } : this.plainBecause
      this.report('connected', reconnected ? 'reconnected' : `connected to ${target.username}@${target.host}`, {
        ...(persistence ? { persistence } : {})
      })
    } catch (error) {
      if (session.finished) return
      this.report(
        'failed',
        `The server refused to start a shell: ${serverLine((error as Error).message, 300)}. Press Reconnect to try again.`,
        {
          needsUser: true
        }
      )
    }
  }

  /** Whether this connection is no longer the tab's (it closed, or the tab did, while we waited). */
  private stale(connection: SshConnection): boolean {
    return this.session.finished || this.lease?.connection !== connection
  }

  /** tmux when the instance has one we can use; otherwise the reason is kept and the tab goes plain. */
  private async tmuxOrPlain(): Promise<TmuxProbe | undefined> {
    let probe: TmuxProbe
    try {
      probe = await this.tmux.probe(this.session.instanceId)
    } catch (error) {
      // A probe that failed is not kept: the next attach asks again.
      return this.plainFor(
        'check-failed',
        `Cloud Tray could not check for tmux (${(error as Error).message}), so this tab runs a plain shell.`
      )
    }
    if (probe.kind === 'tmux') return probe
    if (probe.kind === 'too-old') {
      return this.keepPlain(
        'old-tmux',
        `This tab ends if the connection drops: ${probe.version} is too old (Cloud Tray needs tmux 3.0 or newer). Update tmux on the instance to keep jobs running.`
      )
    }
    return this.keepPlain('no-tmux', NO_TMUX_MESSAGE)
  }

  private keepPlain(why: 'no-tmux' | 'old-tmux', message: string): undefined {
    // A user's session cannot become a plain shell: that tab says so instead.
    if (this.wanted?.socket === 'ours') this.plainBecause = { kind: 'plain', why, message }
    return undefined
  }

  private plainFor(why: 'check-failed', message: string): undefined {
    this.plainBecause = { kind: 'plain', why, message }
    return undefined
  }

  /** A re-attached session's history: the screen and scrollback cleared, the history, then blank lines that push it all into the scrollback. */
  private async history(instanceId: string, lobby: string, name: string): Promise<Uint8Array | undefined> {
    const lines = await this.tmux.join(instanceId, lobby, name).catch(() => undefined)
    if (!lines || lines.length === 0) return undefined
    const text = lines.toString('utf8').replace(/\n$/, '').replace(/\r?\n/g, '\r\n')
    // `rows` line feeds after the last line put it just above the screen tmux then draws.
    return Buffer.from(`${CLEAR_ALL}${text}\x1b[0m${'\r\n'.repeat(this.session.rows)}\x1b[H`, 'utf8')
  }
}
