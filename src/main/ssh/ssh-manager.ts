/**
 * Terminals by instance: one SSH connection per instance, shared by its tabs and reference-
 * counted (the last tab closed ends it). When a connection drops, every tab on it says
 * "connection lost — reconnecting in N s" and the link retries with backoff; an authentication
 * or host-key failure is never retried without the user, and `reconnect` always works.
 */
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Instance } from '../../shared/api'
import type { Clock, TimerHandle } from '../../shared/clock'
import type { PromptAnswer, TerminalState, TerminalStatus } from '../../shared/contract-ssh'
import { AppError } from '../app-error'
import type { ClientId, EventSink } from '../core-types'
import { authCandidates } from './auth'
import { reconnectDelay } from './backoff'
import { connect, SshConnectError, type SshConnection } from './connection'
import type { KnownHostsStore } from './known-hosts-store'
import { PromptBroker, type PromptQuestion } from './prompts'
import { requireRunning, sshTarget, type SshTarget } from './target'
import { TerminalSession, type TerminalStats } from './terminal-session'

export interface SshManagerOptions {
  clock: Clock
  emit: EventSink
  findInstance: (instanceId: string) => Instance | undefined
  knownHosts: KnownHostsStore
  /** Home folder for the ~/.ssh default keys. */
  homeDir: string
  /** The key set in Settings, read at each connection. */
  settingsKeyFile: () => string | null
  /** The Sandbox's generated key while the Sandbox profile is in use. */
  sandboxKeyFile: () => string | undefined
  /** The agent to ask (see agent-path.ts); undefined: none. */
  agent: string | undefined
  keepaliveIntervalMs?: number
  keepaliveCountMax?: number
  connectTimeoutMs?: number
  highWatermark?: number
  lowWatermark?: number
  random?: () => number
  /** Overrides how the target is found (tests point an instance at a local sshd). */
  targetOf?: (instance: Instance) => SshTarget
}

const DEFAULT_KEYS = ['id_ed25519', 'id_ecdsa', 'id_rsa']

interface Link {
  instanceId: string
  target: SshTarget
  terminals: Set<TerminalSession>
  connection?: SshConnection
  connecting?: Promise<void>
  attempt: number
  retryTimer?: TimerHandle
  /** Prompts of the current attempt, withdrawn if the link is dropped. */
  promptIds: Set<string>
}

/** Said when a real instance refuses every key: the one fix the provider allows. */
export const REAL_CLOUD_KEY_ADVICE =
  'On HPC-AI an instance accepts only SSH keys registered in the console (SSH keys) before it was created: add your public key there, then create a new instance.'

export class SshManager {
  private readonly links = new Map<string, Link>()
  private readonly terminals = new Map<string, TerminalSession>()
  private readonly prompts: PromptBroker
  /** Passphrases typed in this app session, by key file. Memory only. */
  private readonly passphrases = new Map<string, string>()
  private readonly acceptedOnce = new Set<string>()
  private disposed = false

  constructor(private readonly options: SshManagerOptions) {
    this.prompts = new PromptBroker((prompt, clientId) => options.emit('ssh.prompt', prompt, clientId))
  }

  /** Opens a tab: answers its id at once; connection progress follows as `ssh.status`. */
  open(instanceId: string, cols: number, rows: number, clientId: ClientId): { terminalId: string } {
    const target = this.targetFor(instanceId)
    const terminalId = `t-${randomUUID()}`
    const session = new TerminalSession({
      id: terminalId,
      instanceId,
      clientId,
      cols,
      rows,
      clock: this.options.clock,
      send: (data) => this.options.emit('ssh.data', { terminalId, data: plainBytes(data) }, clientId),
      onShellExit: (tab, code) => this.shellEnded(tab, code),
      onChannelLost: (tab) => this.channelLost(tab),
      ...(this.options.highWatermark ? { highWatermark: this.options.highWatermark } : {}),
      ...(this.options.lowWatermark ? { lowWatermark: this.options.lowWatermark } : {})
    })
    this.terminals.set(terminalId, session)
    const link = this.joinLink(session, target)
    // After this command's answer has gone out, so the renderer knows the id before any event.
    setImmediate(() => this.attach(link, session))
    return { terminalId }
  }

  input(terminalId: string, data: string, clientId: ClientId): void {
    this.owned(terminalId, clientId).write(data)
  }

  resize(terminalId: string, cols: number, rows: number, clientId: ClientId): void {
    this.owned(terminalId, clientId).resize(cols, rows)
  }

  ack(terminalId: string, bytes: number, clientId: ClientId): void {
    this.owned(terminalId, clientId).ack(bytes)
  }

  close(terminalId: string, clientId: ClientId): void {
    this.release(this.owned(terminalId, clientId))
  }

  /** Connects again now: after a failure, during a backoff wait, or to replace a live shell. */
  reconnect(terminalId: string, clientId: ClientId): void {
    const session = this.owned(terminalId, clientId)
    // A tab whose shell ended rejoins its instance's connection (made anew if it was the last).
    const link = session.finished ? this.joinLink(session, this.targetFor(session.instanceId)) : this.linkOf(session)
    session.finished = false
    link.attempt = 0
    this.options.clock.clearTimeout(link.retryTimer)
    link.retryTimer = undefined
    if (link.connection) {
      // The connection is up: this tab gets a new shell; the other tabs keep theirs. (A hung
      // connection is not up for long: keepalive ends it and every tab reconnects.)
      session.dropChannel()
      this.status(session, 'connecting', 'starting a new shell…')
      this.attach(link, session)
      return
    }
    for (const tab of link.terminals) this.status(tab, 'connecting', 'reconnecting…')
    void this.connectLink(link)
  }

  /** Every connection waiting out a backoff delay tries now (after wake or a network change). */
  retryWaitingNow(): void {
    for (const link of this.links.values()) if (link.retryTimer) this.retryNow(link)
  }

  answer(promptId: string, answer: PromptAnswer, clientId: ClientId): void {
    if (!this.prompts.answer(promptId, answer, clientId)) {
      throw new AppError('not-allowed', 'That question was already answered or withdrawn.')
    }
  }

  async forgetHostKey(host: string, port: number): Promise<void> {
    await this.options.knownHosts.forget(host, port)
    for (const key of [...this.acceptedOnce]) if (key.startsWith(`${host}:${port} `)) this.acceptedOnce.delete(key)
  }

  /** For tests and benchmarks: the data path's counters of one tab. */
  stats(terminalId: string): TerminalStats | undefined {
    return this.terminals.get(terminalId)?.stats()
  }

  /** The live connection of an instance (tests use it for exec). */
  connectionOf(instanceId: string): SshConnection | undefined {
    return this.links.get(instanceId)?.connection
  }

  clientGone(clientId: ClientId): void {
    this.prompts.clientGone(clientId)
    for (const session of [...this.terminals.values()]) if (session.clientId === clientId) this.release(session)
  }

  dispose(): void {
    this.disposed = true
    for (const session of [...this.terminals.values()]) this.release(session)
  }

  // ------------------------------------------------------------------ internals

  private owned(terminalId: string, clientId: ClientId): TerminalSession {
    const session = this.terminals.get(terminalId)
    if (!session || session.clientId !== clientId) {
      throw new AppError('not-allowed', 'That terminal is closed. Open a new one from the instance.')
    }
    return session
  }

  private targetFor(instanceId: string): SshTarget {
    const instance = this.options.findInstance(instanceId)
    if (!instance) throw new AppError('not-allowed', 'That instance is no longer in your list. Refresh the list and try again.')
    requireRunning(instance)
    return (this.options.targetOf ?? sshTarget)(instance)
  }

  private joinLink(session: TerminalSession, target: SshTarget): Link {
    let link = this.links.get(session.instanceId)
    if (!link) {
      link = { instanceId: session.instanceId, target, terminals: new Set(), attempt: 0, promptIds: new Set() }
      this.links.set(session.instanceId, link)
    }
    link.terminals.add(session)
    return link
  }

  private linkOf(session: TerminalSession): Link {
    const link = this.links.get(session.instanceId)
    if (!link) throw new AppError('internal', 'A terminal lost track of its connection. Close the tab and open a new one.')
    return link
  }

  private attach(link: Link, session: TerminalSession): void {
    if (session.finished || this.disposed) return
    if (link.connection) {
      void this.openShell(link, link.connection, session)
      return
    }
    this.status(session, 'connecting', `connecting to ${link.target.username}@${link.target.host}:${link.target.port}…`)
    if (!link.connecting && link.retryTimer === undefined) void this.connectLink(link)
  }

  private connectLink(link: Link): Promise<void> {
    if (link.connecting) return link.connecting
    const asker = [...link.terminals][0]
    if (!asker) return Promise.resolve()
    const ask = (question: PromptQuestion): Promise<PromptAnswer> => {
      const { promptId, answer } = this.prompts.ask(asker.clientId, question)
      link.promptIds.add(promptId)
      return answer.finally(() => link.promptIds.delete(promptId))
    }
    const settingsKey = this.options.settingsKeyFile()
    const sandboxKey = this.options.sandboxKeyFile()
    const candidates = authCandidates({
      ...(this.options.agent ? { agent: this.options.agent } : {}),
      keyFiles: [settingsKey, sandboxKey, ...DEFAULT_KEYS.map((name) => join(this.options.homeDir, '.ssh', name))]
    })
    link.connecting = connect({
      target: link.target,
      knownHosts: this.options.knownHosts,
      acceptedOnce: this.acceptedOnce,
      candidates,
      readKey: readKeyFile,
      passphrases: this.passphrases,
      ask,
      tell: (question) => this.options.emit('ssh.prompt', { ...question, promptId: `p-${randomUUID()}` } as never, asker.clientId),
      clock: this.options.clock,
      ...(this.options.keepaliveIntervalMs ? { keepaliveIntervalMs: this.options.keepaliveIntervalMs } : {}),
      ...(this.options.keepaliveCountMax ? { keepaliveCountMax: this.options.keepaliveCountMax } : {}),
      ...(this.options.connectTimeoutMs ? { connectTimeoutMs: this.options.connectTimeoutMs } : {})
    }).then(
      (connection) => {
        link.connecting = undefined
        if (link.terminals.size === 0 || this.disposed || this.links.get(link.instanceId) !== link) {
          connection.end()
          return
        }
        link.connection = connection
        link.attempt = 0
        void connection.closed.then((reason) => this.connectionClosed(link, connection, reason))
        for (const tab of link.terminals) if (!tab.hasChannel) void this.openShell(link, connection, tab)
      },
      (error: unknown) => {
        link.connecting = undefined
        for (const promptId of link.promptIds) this.prompts.cancel(promptId)
        if (link.terminals.size === 0 || this.disposed) return
        const failure = error instanceof SshConnectError ? error : new SshConnectError('network', String(error), true)
        // A real cloud (not the Sandbox, whose key the app registers itself) takes only keys
        // registered in its console before the instance was created (hpcai-api-facts.md 4).
        const message = failure.reason === 'auth' && sandboxKey === undefined ? `${failure.message} ${REAL_CLOUD_KEY_ADVICE}` : failure.message
        if (failure.retryable) this.scheduleRetry(link, message)
        else for (const tab of link.terminals) this.status(tab, 'failed', message, { needsUser: true })
      }
    )
    return link.connecting
  }

  private async openShell(link: Link, connection: SshConnection, session: TerminalSession): Promise<void> {
    try {
      const channel = await connection.shell({ cols: session.cols, rows: session.rows })
      if (session.finished || link.connection !== connection) {
        channel.close()
        return
      }
      const reconnected = session.everConnected
      session.attach(channel)
      this.status(session, 'connected', reconnected ? 'reconnected' : `connected to ${link.target.username}@${link.target.host}`)
    } catch (error) {
      if (session.finished) return
      this.status(session, 'failed', `The server refused to start a shell: ${(error as Error).message}. Press Reconnect to try again.`, { needsUser: true })
    }
  }

  private connectionClosed(link: Link, connection: SshConnection, reason: string): void {
    if (link.connection !== connection) return
    link.connection = undefined
    for (const tab of link.terminals) tab.detach()
    if (connection.isEnding || link.terminals.size === 0 || this.disposed) return
    this.scheduleRetry(link, reason)
  }

  private scheduleRetry(link: Link, reason: string): void {
    link.attempt++
    const delay = reconnectDelay(link.attempt, this.options.random)
    if (delay === undefined) {
      for (const tab of link.terminals) {
        this.status(tab, 'failed', `${reason.replace(/\.?$/, '.')} Gave up after ${link.attempt - 1} attempts — press Reconnect to try again.`, { needsUser: true })
      }
      return
    }
    const retryAt = this.options.clock.now() + delay
    const seconds = Math.ceil(delay / 1000)
    const lost = [...link.terminals].some((tab) => tab.everConnected)
    const line = lost ? `connection lost — reconnecting in ${seconds} s (${reason})` : `${reason.replace(/\.?$/, '.')} Retrying in ${seconds} s.`
    for (const tab of link.terminals) this.status(tab, 'reconnecting', line, { retryAt })
    link.retryTimer = this.options.clock.setTimeout(() => this.retryNow(link), delay)
  }

  /** Ends a backoff wait early (or on time) and connects. */
  private retryNow(link: Link): void {
    this.options.clock.clearTimeout(link.retryTimer)
    link.retryTimer = undefined
    if (link.terminals.size === 0 || this.disposed) return
    for (const tab of link.terminals) this.status(tab, 'connecting', 'reconnecting…')
    void this.connectLink(link)
  }

  private shellEnded(session: TerminalSession, exitCode: number | null): void {
    session.finished = true
    const suffix = exitCode === null ? '' : ` (exit ${exitCode})`
    this.status(session, 'closed', `session ended${suffix} — press Reconnect for a new shell`)
    // The tab stays open (its scrollback is the user's) but no longer holds the connection.
    this.detachFromLink(session)
  }

  private channelLost(session: TerminalSession): void {
    const link = this.links.get(session.instanceId)
    const connection = link?.connection
    // If the connection is going down, connectionClosed handles every tab at once.
    setImmediate(() => {
      if (!link || session.finished || session.hasChannel || link.connection !== connection || !connection) return
      session.finished = true
      this.status(session, 'closed', 'the server closed this shell — press Reconnect for a new one')
      this.detachFromLink(session)
    })
  }

  /** Removes a tab from its link (ending the connection if it was the last), keeping it reconnectable. */
  private detachFromLink(session: TerminalSession): void {
    const link = this.links.get(session.instanceId)
    if (!link) return
    link.terminals.delete(session)
    if (link.terminals.size === 0) this.dropLink(link)
  }

  private release(session: TerminalSession): void {
    session.close()
    this.terminals.delete(session.id)
    this.detachFromLink(session)
  }

  private dropLink(link: Link): void {
    this.options.clock.clearTimeout(link.retryTimer)
    link.retryTimer = undefined
    for (const promptId of link.promptIds) this.prompts.cancel(promptId)
    if (link.connection) this.dropConnection(link)
    this.links.delete(link.instanceId)
  }

  private dropConnection(link: Link): void {
    const connection = link.connection
    link.connection = undefined
    for (const tab of link.terminals) tab.detach()
    connection?.end()
  }

  private status(session: TerminalSession, state: TerminalState, message: string, extra: Partial<TerminalStatus> = {}): void {
    session.state = state
    const payload: TerminalStatus = { terminalId: session.id, state, message, ...extra }
    this.options.emit('ssh.status', payload, session.clientId)
  }
}

/**
 * The contract's `Uint8Array`, not a Node Buffer: a Buffer serialises itself through toJSON
 * (`{type: 'Buffer', data: [...]}`) before a JSON replacer can see it, which breaks transports
 * that carry bytes as binary. A view over the same memory costs nothing.
 */
function plainBytes(data: Uint8Array): Uint8Array {
  return Buffer.isBuffer(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : data
}

async function readKeyFile(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path)
  } catch {
    return null
  }
}
