/**
 * The terminals: tabs by instance. Each tab is a user of its instance's shared connection (links/links.ts):
 * the first tab (or tunnel, or files panel) makes it, the last to leave ends it. When it drops,
 * every tab says "connection lost — reconnecting in N s" while the link retries with backoff; an
 * authentication or host-key failure is never retried without the user, and `reconnect` always
 * works. After a reconnect each tab gets a new shell in place.
 */
import { randomUUID } from 'node:crypto'
import type { Clock } from '../../shared/clock'
import type { TerminalState, TerminalStatus } from '../../shared/contract-ssh'
import { AppError } from '../app-error'
import type { ClientId, EventSink } from '../core-types'
import type { SshConnection } from './links/connection'
import type { LinkLease, LinkStatus, LinkUser } from './links/link-user'
import type { SshLinks } from './links/links'
import { plainBytes } from './data-path/plain-bytes'
import { TerminalSession, type TerminalStats } from './data-path/terminal-session'
import type { ParseWindowBounds } from './data-path/flow-control'
import { serverLine } from '../../shared/untrusted-text'

export interface TerminalsOptions {
  /** The shared connections (the wing's): each tab is a user of its instance's link. */
  links: SshLinks
  clock: Clock
  /** `ssh.data` and `ssh.status`, each to the window that opened the tab. */
  emit: EventSink
  /** Flow control's window bounds (data-path/flow-control.ts); tests and benchmarks change them. */
  parseWindow?: ParseWindowBounds
}

export class Terminals {
  private readonly terminals = new Map<string, TerminalTab>()
  private disposed = false

  constructor(private readonly options: TerminalsOptions) {}

  /** Terminal tabs open now (a restart to update waits for them). */
  openCount(): number {
    return this.terminals.size
  }

  /** Opens a tab: answers its id at once; connection progress follows as `ssh.status`. */
  open(instanceId: string, cols: number, rows: number, clientId: ClientId): { terminalId: string } {
    const terminalId = `t-${randomUUID()}`
    const session = new TerminalSession({
      id: terminalId,
      instanceId,
      clientId,
      cols,
      rows,
      clock: this.options.clock,
      send: (data) => this.options.emit('ssh.data', { terminalId, data: plainBytes(data) }, clientId),
      onShellExit: (_session, code) => this.shellEnded(tab, code),
      onChannelLost: () => this.channelLost(tab),
      ...(this.options.parseWindow ? { parseWindow: this.options.parseWindow } : {})
    })
    const tab = new TerminalTab(session, (state, message, extra) => this.status(session, state, message, extra))
    // Throws (in the user's words) before anything is kept when the instance cannot be reached.
    tab.lease = this.options.links.acquire(instanceId, tab)
    this.terminals.set(terminalId, tab)
    return { terminalId }
  }

  input(terminalId: string, data: string, clientId: ClientId): void {
    this.owned(terminalId, clientId).session.write(data)
  }

  resize(terminalId: string, cols: number, rows: number, clientId: ClientId): void {
    this.owned(terminalId, clientId).session.resize(cols, rows)
  }

  ack(terminalId: string, bytes: number, clientId: ClientId): void {
    this.owned(terminalId, clientId).session.ack(bytes)
  }

  close(terminalId: string, clientId: ClientId): void {
    this.release(this.owned(terminalId, clientId))
  }

  /** Connects again now: after a failure, during a backoff wait, or to replace a live shell. */
  reconnect(terminalId: string, clientId: ClientId): void {
    const tab = this.owned(terminalId, clientId)
    // A tab whose shell ended rejoins its instance's connection (made anew if it was the last).
    if (!tab.lease) tab.lease = this.options.links.acquire(tab.session.instanceId, tab)
    tab.session.finished = false
    tab.lease.reconnect()
  }

  /** For tests and benchmarks: the data path's counters of one tab. */
  stats(terminalId: string): TerminalStats | undefined {
    return this.terminals.get(terminalId)?.session.stats()
  }

  /** The window went away: its tabs close (its prompts are the links' to cancel). */
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

  private shellEnded(tab: TerminalTab, exitCode: number | null): void {
    tab.session.finished = true
    const suffix = exitCode === null ? '' : ` (exit ${exitCode})`
    this.status(tab.session, 'closed', `session ended${suffix} — press Reconnect for a new shell`)
    // The tab stays open (its scrollback is the user's) but no longer holds the connection.
    tab.leave()
  }

  private channelLost(tab: TerminalTab): void {
    const connection = tab.shellConnection
    // If the connection is going down, the link tells every tab at once.
    setImmediate(() => {
      const { session } = tab
      if (session.finished || session.hasChannel || !connection || tab.lease?.connection !== connection) return
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

/** One tab as a user of its instance's link: a shell on each connection it is handed. */
class TerminalTab implements LinkUser {
  lease: LinkLease | undefined
  /** The connection the current shell runs on. */
  shellConnection: SshConnection | undefined

  constructor(
    readonly session: TerminalSession,
    private readonly report: (state: TerminalState, message: string, extra?: Partial<TerminalStatus>) => void
  ) {}

  get askClient(): ClientId {
    return this.session.clientId
  }

  connected(connection: SshConnection, requested: boolean): void {
    if (this.session.finished) return
    if (requested) {
      // Reconnect on a live connection: this tab gets a new shell; the other tabs keep theirs.
      this.session.dropChannel()
      this.report('connecting', 'starting a new shell…')
    }
    void this.openShell(connection)
  }

  disconnected(): void {
    this.shellConnection = undefined
    this.session.detach()
  }

  status(status: LinkStatus): void {
    if (this.session.finished) return
    this.report(status.state === 'failed' ? 'failed' : status.state, status.message, {
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
    const { session } = this
    try {
      const channel = await connection.shell({ cols: session.cols, rows: session.rows })
      if (session.finished || this.lease?.connection !== connection) {
        channel.close()
        return
      }
      const reconnected = session.everConnected
      this.shellConnection = connection
      session.attach(channel)
      const target = connection.target
      this.report('connected', reconnected ? 'reconnected' : `connected to ${target.username}@${target.host}`)
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
}
