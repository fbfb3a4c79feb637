/**
 * The one SSH connection per instance, shared by everything that needs it: terminal tabs,
 * tunnels, files panels and background commands (`exec`). Each of those is a LinkUser that
 * acquires the link and releases it; the connection is made when the first user comes and ended
 * when the last one leaves. When it drops, every user is told and the link reconnects with
 * backoff (1 → 30 s, 12 tries); once it is back, each user is handed the new connection and
 * re-opens what it needs (a shell, a tunnel's channels, an SFTP session). An authentication or
 * host-key failure is never retried without the user.
 *
 * Prompts (host key, passphrase, password) go to the window of the user that is waiting; a user
 * without a window (a restored tunnel, a probe) never causes a prompt: if the only users are
 * background ones and a prompt would be needed, the attempt fails with the reason in words.
 */
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Instance } from '../../../shared/api'
import { isRunning } from '../../../shared/instance-rules'
import type { Clock, TimerHandle } from '../../../shared/clock'
import type { PromptAnswer } from '../../../shared/contract-ssh'
import { AppError } from '../../app-error'
import type { ClientId, EventSink } from '../../core-types'
import { authCandidates } from '../auth/auth'
import { reconnectDelay } from './backoff'
import { connect, SshConnectError, type SshConnection } from './connection'
import { DEFAULT_EXEC_IDLE_MS, ExecError, ExecUser, type ExecOptions, type ExecResult } from './exec'
import type { LinkLease, LinkStatus, LinkUser } from './link-user'
import type { KnownHostsStore } from '../host-keys/known-hosts-store'
import { PromptBroker, type PromptQuestion } from '../auth/prompts'
import { requireRunning, sshTarget, type SshTarget } from '../target'

/** Said when a real instance refuses every key: the one fix the provider allows. */
export const REAL_CLOUD_KEY_ADVICE =
  'On HPC-AI an instance accepts only SSH keys registered in the console (SSH keys) before it was created: add your public key there, then create a new instance.'

export interface SshLinksOptions {
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
  random?: () => number
  /** Overrides how the target is found (tests point an instance at a local sshd). */
  targetOf?: (instance: Instance) => SshTarget
  /** How long a connection opened only for `exec` stays for the next one (default 3 min). */
  execIdleMs?: number
}

const DEFAULT_KEYS = ['id_ed25519', 'id_ecdsa', 'id_rsa']

interface Link {
  instanceId: string
  target: SshTarget
  users: Set<LinkUser>
  connection?: SshConnection
  connecting?: Promise<void>
  attempt: number
  retryTimer?: TimerHandle
  /** Set once a connection of this link was up: a later drop is a "connection lost". */
  everConnected: boolean
  /** Prompts of the current attempt, withdrawn if the link is dropped. */
  promptIds: Set<string>
  /** The user who last asked to reconnect: its window is asked first. */
  preferredAsker?: LinkUser
  /** The connection each user was last handed, so a deferred start does not hand it twice. */
  handed: WeakMap<LinkUser, SshConnection>
  /** The exec-only user while one holds the link (see exec). */
  execUser?: ExecUser
  /** What was learnt about the instance once for this link (`once`), e.g. whether it has tmux. */
  facts: Map<string, Promise<unknown>>
}

export class SshLinks {
  private readonly links = new Map<string, Link>()
  private readonly prompts: PromptBroker
  /** Passphrases typed in this app session, by key file. Memory only. */
  private readonly passphrases = new Map<string, string>()
  private readonly acceptedOnce = new Set<string>()
  /** Told each time an instance's connection comes up (see onConnected). */
  private readonly connectedListeners = new Set<(instanceId: string) => void>()
  private disposed = false

  constructor(private readonly options: SshLinksOptions) {
    this.prompts = new PromptBroker((prompt, clientId) => options.emit('ssh.prompt', prompt, clientId))
  }

  /**
   * Joins the instance's link (making it if needed). Throws an AppError in the user's words when
   * the instance is not in the list, not running, or has no usable SSH address. The user hears
   * about the connection only after this returns.
   */
  acquire(instanceId: string, user: LinkUser): LinkLease {
    if (this.disposed) throw new AppError('not-allowed', 'Cloud Tray is quitting.')
    const target = this.targetFor(instanceId)
    let link = this.links.get(instanceId)
    if (!link) {
      link = {
        instanceId,
        target,
        users: new Set(),
        attempt: 0,
        everConnected: false,
        promptIds: new Set(),
        handed: new WeakMap(),
        facts: new Map()
      }
      this.links.set(instanceId, link)
    }
    link.users.add(user)
    const joined = link
    setImmediate(() => this.start(joined, user))
    let released = false
    return {
      instanceId,
      target: link.target,
      get connection() {
        return released ? undefined : joined.connection
      },
      reconnect: () => {
        if (!released) this.reconnect(joined, user)
      },
      release: () => {
        if (released) return
        released = true
        this.leave(joined, user)
      }
    }
  }

  /**
   * Runs `command` on the instance (no PTY) and answers its output and exit code. It uses the
   * instance's shared connection when one is up, else opens one for exec alone and keeps it for
   * the next call (`execIdleMs`), so a probe once a minute logs in once. It never asks the user:
   * a host key not yet trusted or a key that needs its passphrase fails with that reason, as does
   * an instance that is not running (and a connection opened for exec ends when it stops).
   */
  async exec(instanceId: string, command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const instance = this.options.findInstance(instanceId)
    if (!instance) throw new ExecError('not-running', `Instance ${instanceId} is not in the list.`)
    if (!isRunning(instance)) {
      throw new ExecError('not-running', `${instance.instanceSpecInfo.name} is ${instance.instanceRuntimeInfo.status}, not Running.`)
    }
    const { link, user } = this.execUserOf(instanceId)
    return user.run(link.connection, link.target, command, options)
  }

  /**
   * Keeps the instance's connection for `execIdleMs` from now, as a connection made for `exec` is
   * kept: a command line's next session there skips the handshake. Does nothing when the instance
   * cannot be reached (it is not running).
   */
  keepWarm(instanceId: string): void {
    try {
      this.execUserOf(instanceId).user.hold()
    } catch {
      // Not running any more: nothing to keep.
    }
  }

  /** The link's background user (made, joining the link, when there is none). Throws ExecError when it cannot run. */
  private execUserOf(instanceId: string): { link: Link; user: ExecUser } {
    const existing = this.links.get(instanceId)
    if (existing?.execUser) return { link: existing, user: existing.execUser }
    const user = new ExecUser(this.options.clock, this.options.execIdleMs ?? DEFAULT_EXEC_IDLE_MS)
    let lease: LinkLease
    try {
      lease = this.acquire(instanceId, user)
    } catch (error) {
      throw new ExecError('not-running', (error as Error).message)
    }
    const link = this.links.get(instanceId) as Link
    link.execUser = user
    user.onIdle = () => {
      if (link.execUser === user) link.execUser = undefined
      lease.release()
    }
    return { link, user }
  }

  /**
   * Learns something about the instance once per link (kept across its reconnects, forgotten when
   * the link ends): `learn` runs for the first caller, the others share its answer. A failure is
   * not kept, so the next caller asks again. Without a link (nobody holds one) it just runs.
   */
  once<T>(instanceId: string, key: string, learn: () => Promise<T>): Promise<T> {
    const link = this.links.get(instanceId)
    if (!link) return learn()
    const known = link.facts.get(key) as Promise<T> | undefined
    if (known) return known
    const asked = learn()
    link.facts.set(key, asked)
    asked.catch(() => {
      if (link.facts.get(key) === asked) link.facts.delete(key)
    })
    return asked
  }

  /**
   * The instance left Running: its link ends (a stopping machine will not answer again) and
   * every user is told; exec waits fail. Users may acquire again once it runs.
   */
  instanceStopped(instanceId: string, why: string): void {
    const link = this.links.get(instanceId)
    if (!link) return
    const status: LinkStatus = { state: 'failed', message: why, needsUser: true, reason: 'instance-stopped' }
    const users = [...link.users]
    this.dropLink(link)
    for (const user of users) {
      user.disconnected()
      user.status(status)
    }
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

  /** Every link waiting out a backoff delay tries now (after wake or a network change). */
  retryWaitingNow(): void {
    for (const link of this.links.values()) if (link.retryTimer) this.retryNow(link)
  }

  /**
   * Hears every connection that comes up, by instance: the first, each reconnect, and the one a
   * window makes after the user trusted the host key or typed a passphrase. Background work that
   * failed for want of a connection (the GPU probes) tries again now instead of at its next turn.
   * Answers the call that stops listening.
   */
  onConnected(listener: (instanceId: string) => void): () => void {
    this.connectedListeners.add(listener)
    return () => void this.connectedListeners.delete(listener)
  }

  /** After a wake: every live connection is asked at once whether it still answers (connection.ts probe). */
  probeNow(): void {
    for (const link of this.links.values()) link.connection?.probe(this.options.clock)
  }

  /** The live connection of an instance (tests use it for exec). */
  connectionOf(instanceId: string): SshConnection | undefined {
    return this.links.get(instanceId)?.connection
  }

  /** Instances that have a link now. */
  instanceIds(): string[] {
    return [...this.links.keys()]
  }

  /** How many users hold the instance's link (tests). */
  usersOf(instanceId: string): number {
    return this.links.get(instanceId)?.users.size ?? 0
  }

  clientGone(clientId: ClientId): void {
    this.prompts.clientGone(clientId)
  }

  dispose(): void {
    this.disposed = true
    for (const link of [...this.links.values()]) {
      const users = [...link.users]
      this.dropLink(link)
      for (const user of users) user.disconnected()
    }
  }

  // ------------------------------------------------------------------ internals

  private targetFor(instanceId: string): SshTarget {
    const instance = this.options.findInstance(instanceId)
    if (!instance) throw new AppError('not-allowed', 'That instance is no longer in your list. Refresh the list and try again.')
    requireRunning(instance)
    return (this.options.targetOf ?? sshTarget)(instance)
  }

  private start(link: Link, user: LinkUser): void {
    if (!link.users.has(user) || this.disposed) return
    if (link.connection) {
      this.hand(link, user, link.connection, false)
      return
    }
    user.status({ state: 'connecting', message: `connecting to ${link.target.username}@${link.target.host}:${link.target.port}…` })
    if (!link.connecting && link.retryTimer === undefined) void this.connectLink(link)
  }

  private hand(link: Link, user: LinkUser, connection: SshConnection, requested: boolean): void {
    if (!requested && link.handed.get(user) === connection) return
    link.handed.set(user, connection)
    user.connected(connection, requested)
  }

  private reconnect(link: Link, user: LinkUser): void {
    link.attempt = 0
    link.preferredAsker = user
    this.options.clock.clearTimeout(link.retryTimer)
    link.retryTimer = undefined
    if (link.connection) {
      this.hand(link, user, link.connection, true)
      return
    }
    this.broadcast(link, { state: 'connecting', message: 'reconnecting…' })
    void this.connectLink(link)
  }

  /** The window to ask: the user who asked to reconnect, else the newest user that has a window. */
  private askerOf(link: Link): ClientId | undefined {
    if (link.preferredAsker?.askClient && link.users.has(link.preferredAsker)) return link.preferredAsker.askClient
    let asker: ClientId | undefined
    for (const user of link.users) if (user.askClient) asker = user.askClient
    return asker
  }

  private connectLink(link: Link): Promise<void> {
    if (link.connecting) return link.connecting
    if (link.users.size === 0) return Promise.resolve()
    const asker = this.askerOf(link)
    const ask = asker
      ? (question: PromptQuestion): Promise<PromptAnswer> => {
          const { promptId, answer } = this.prompts.ask(asker, question)
          link.promptIds.add(promptId)
          return answer.finally(() => link.promptIds.delete(promptId))
        }
      : undefined
    const sandboxKey = this.options.sandboxKeyFile()
    const candidates = authCandidates({
      ...(this.options.agent ? { agent: this.options.agent } : {}),
      keyFiles: [this.options.settingsKeyFile(), sandboxKey, ...DEFAULT_KEYS.map((name) => join(this.options.homeDir, '.ssh', name))]
    })
    link.connecting = connect({
      target: link.target,
      instanceId: link.instanceId,
      knownHosts: this.options.knownHosts,
      acceptedOnce: this.acceptedOnce,
      candidates,
      readKey: readKeyFile,
      passphrases: this.passphrases,
      ask,
      tell: (question) => {
        if (asker) this.options.emit('ssh.prompt', { ...question, promptId: `p-${randomUUID()}` } as never, asker)
      },
      clock: this.options.clock,
      ...(this.options.keepaliveIntervalMs ? { keepaliveIntervalMs: this.options.keepaliveIntervalMs } : {}),
      ...(this.options.keepaliveCountMax ? { keepaliveCountMax: this.options.keepaliveCountMax } : {}),
      ...(this.options.connectTimeoutMs ? { connectTimeoutMs: this.options.connectTimeoutMs } : {})
    }).then(
      (connection) => {
        link.connecting = undefined
        if (link.users.size === 0 || this.disposed || this.links.get(link.instanceId) !== link) {
          connection.end()
          return
        }
        link.connection = connection
        link.attempt = 0
        link.everConnected = true
        void connection.closed.then((reason) => this.connectionClosed(link, connection, reason))
        for (const user of [...link.users]) if (link.connection === connection) this.hand(link, user, connection, false)
        for (const listener of [...this.connectedListeners]) {
          try {
            listener(link.instanceId)
          } catch {
            // A listener's failure is its own; the link and its users are already served.
          }
        }
      },
      (error: unknown) => {
        link.connecting = undefined
        for (const promptId of link.promptIds) this.prompts.cancel(promptId)
        if (link.users.size === 0 || this.disposed || this.links.get(link.instanceId) !== link) return
        const failure = error instanceof SshConnectError ? error : new SshConnectError('network', String(error), true)
        // A real cloud (not the Sandbox, whose key the app registers itself) takes only keys
        // registered in its console before the instance was created (hpcai-api-facts.md 4).
        const message =
          failure.reason === 'auth' && sandboxKey === undefined ? `${failure.message} ${REAL_CLOUD_KEY_ADVICE}` : failure.message
        if (failure.retryable) this.scheduleRetry(link, message)
        else this.broadcast(link, { state: 'failed', message, needsUser: true, reason: failure.reason })
      }
    )
    return link.connecting
  }

  private connectionClosed(link: Link, connection: SshConnection, reason: string): void {
    if (link.connection !== connection) return
    link.connection = undefined
    for (const user of [...link.users]) user.disconnected()
    if (connection.isEnding || link.users.size === 0 || this.disposed) return
    this.scheduleRetry(link, reason)
  }

  private scheduleRetry(link: Link, reason: string): void {
    link.attempt++
    const delay = reconnectDelay(link.attempt, this.options.random)
    if (delay === undefined) {
      this.broadcast(link, {
        state: 'failed',
        message: `${reason.replace(/\.?$/, '.')} Gave up after ${link.attempt - 1} attempts — press Reconnect to try again.`,
        needsUser: true,
        reason: 'network'
      })
      return
    }
    const retryAt = this.options.clock.now() + delay
    const seconds = Math.ceil(delay / 1000)
    const line = link.everConnected
      ? `connection lost — reconnecting in ${seconds} s (${reason})`
      : `${reason.replace(/\.?$/, '.')} Retrying in ${seconds} s.`
    this.broadcast(link, { state: 'reconnecting', message: line, retryAt, cause: reason })
    link.retryTimer = this.options.clock.setTimeout(() => this.retryNow(link), delay)
  }

  /** Ends a backoff wait early (or on time) and connects. */
  private retryNow(link: Link): void {
    this.options.clock.clearTimeout(link.retryTimer)
    link.retryTimer = undefined
    if (link.users.size === 0 || this.disposed) return
    this.broadcast(link, { state: 'connecting', message: 'reconnecting…' })
    void this.connectLink(link)
  }

  private broadcast(link: Link, status: LinkStatus): void {
    for (const user of [...link.users]) user.status(status)
  }

  private leave(link: Link, user: LinkUser): void {
    if (!link.users.delete(user)) return
    if (link.preferredAsker === user) link.preferredAsker = undefined
    if (link.execUser === user) link.execUser = undefined
    if (link.users.size === 0 && this.links.get(link.instanceId) === link) this.dropLink(link)
  }

  private dropLink(link: Link): void {
    this.options.clock.clearTimeout(link.retryTimer)
    link.retryTimer = undefined
    for (const promptId of link.promptIds) this.prompts.cancel(promptId)
    const connection = link.connection
    link.connection = undefined
    link.users.clear()
    link.execUser?.stopped()
    link.execUser = undefined
    if (this.links.get(link.instanceId) === link) this.links.delete(link.instanceId)
    connection?.end()
  }
}

async function readKeyFile(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path)
  } catch {
    return null
  }
}
