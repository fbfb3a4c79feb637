/**
 * The app's port tunnels: started from the window or the tray, listed with their counters,
 * remembered per profile and instance (tunnel-store.ts) and brought back when the instance runs
 * again while the app is signed in, suspended while it is not running, closed on sign-out and
 * Quit (and remembered for next time), forgotten when the user stops one or the instance is
 * gone from the cloud.
 */
import { randomUUID } from 'node:crypto'
import type { Instance } from '../../../shared/api'
import type { Clock, TimerHandle } from '../../../shared/clock'
import type { InstancesSnapshot } from '../../../shared/contract'
import { TUNNEL_PRESETS, type TunnelInfo } from '../../../shared/contract-tunnels'
import { AppError } from '../../app-error'
import type { ClientId } from '../../core-types'
import type { SshLinks } from '../links/links'
import { PortInUseError, isPortFree, portRefusal, suggestPort } from './local-port'
import { isRunning, sshEnded } from '../../../shared/instance-rules'
import { statusWords } from '../../../shared/status-words'
import { Tunnel } from './tunnel'
import type { TunnelStore } from './tunnel-store'
import { serverLine } from '../../../shared/untrusted-text'

export interface TunnelManagerOptions {
  links: SshLinks
  clock: Clock
  store: TunnelStore
  findInstance: (instanceId: string) => Instance | undefined
  /** The list changed (its state at once, byte counts at most once a second): the `tunnels` event. */
  publish: (tunnels: TunnelInfo[]) => void
  /** Opens an http URL in the system browser. */
  openUrl: (url: string) => Promise<void>
}

/** Byte counts go out at most this often; state changes go out at once. */
export const COUNTS_EVERY_MS = 1_000

export class TunnelManager {
  private readonly tunnels = new Map<string, Tunnel>()
  private readonly starting = new Map<string, Promise<TunnelInfo>>()
  /** The profile whose remembered tunnels are loaded; undefined while signed out. */
  private profileId: string | undefined
  private publishSoon: NodeJS.Immediate | undefined
  private countsTimer: TimerHandle | undefined
  private disposed = false
  /** Bumped at sign-out, so a sign-in still loading does not bring back tunnels after it. */
  private generation = 0

  constructor(private readonly options: TunnelManagerOptions) {}

  list(): TunnelInfo[] {
    return [...this.tunnels.values()].map((tunnel) => tunnel.info())
  }

  /** The tunnel whose id this is, or a refusal in the user's words. */
  get(tunnelId: string): Tunnel {
    const tunnel = this.tunnels.get(tunnelId)
    if (!tunnel) throw new AppError('not-allowed', 'That tunnel is no longer there. Look at the list again.')
    return tunnel
  }

  /** Forwards a port (see `tunnels.start` in the contract). Two clicks on the same port start it once. */
  start(
    input: { instanceId: string; remotePort: number; localPort?: number | undefined },
    askClient: ClientId | undefined
  ): Promise<TunnelInfo> {
    const key = `${input.instanceId}:${input.remotePort}`
    const pending = this.starting.get(key)
    if (pending) return pending
    const started = this.startOnce(input, askClient).finally(() => this.starting.delete(key))
    this.starting.set(key, started)
    return started
  }

  private async startOnce(
    input: { instanceId: string; remotePort: number; localPort?: number | undefined },
    askClient: ClientId | undefined
  ): Promise<TunnelInfo> {
    if (!this.profileId) throw new AppError('no-session', 'You are signed out. Sign in to forward ports.')
    const instance = this.options.findInstance(input.instanceId)
    if (!instance) throw new AppError('not-allowed', 'That instance is no longer in your list. Refresh the list and try again.')
    const existing = [...this.tunnels.values()].find((t) => t.instanceId === input.instanceId && t.remotePort === input.remotePort)
    if (existing?.listening) {
      if (existing.state === 'failed') existing.retry(askClient)
      return existing.info()
    }
    const tunnel =
      existing ??
      this.make(
        {
          tunnelId: `tun-${randomUUID()}`,
          instanceId: input.instanceId,
          remotePort: input.remotePort,
          localPort: input.localPort ?? input.remotePort
        },
        instance
      )
    tunnel.askClient = askClient
    try {
      await this.bind(tunnel, input.localPort, input.localPort ?? existing?.localPort ?? input.remotePort)
      tunnel.attach(this.options.links.acquire(input.instanceId, tunnel))
    } catch (error) {
      tunnel.close()
      if (!existing) this.tunnels.delete(tunnel.tunnelId)
      throw error
    }
    this.tunnels.set(tunnel.tunnelId, tunnel)
    await this.options.store.remember({
      tunnelId: tunnel.tunnelId,
      profileId: this.profileId,
      instanceId: tunnel.instanceId,
      remotePort: tunnel.remotePort,
      localPort: tunnel.localPort
    })
    this.changed('state')
    return tunnel.info()
  }

  /** Stops a tunnel and forgets it. */
  async stop(tunnelId: string): Promise<void> {
    const tunnel = this.get(tunnelId)
    tunnel.close()
    this.tunnels.delete(tunnelId)
    this.changed('state')
    await this.options.store.forget([tunnelId])
  }

  async open(tunnelId: string): Promise<void> {
    const tunnel = this.get(tunnelId)
    if (!tunnel.listening) throw new AppError('not-allowed', `This tunnel is not open: ${tunnel.message}.`)
    await this.options.openUrl(tunnel.info().url)
  }

  async checkPort(localPort: number): Promise<{ free: boolean; suggestion: number }> {
    const free = await isPortFree(localPort)
    return { free, suggestion: free ? localPort : await suggestPort(localPort) }
  }

  /** Signed in: the profile's remembered tunnels are listed, waiting for their instances. */
  async signedIn(profileId: string): Promise<void> {
    if (this.profileId === profileId) return
    this.signedOut()
    const generation = this.generation
    const remembered = (await this.options.store.all()).filter((entry) => entry.profileId === profileId)
    if (generation !== this.generation || this.disposed) return
    this.profileId = profileId
    const made: Tunnel[] = []
    for (const entry of remembered) {
      if (this.tunnels.has(entry.tunnelId)) continue
      made.push(this.make(entry, this.options.findInstance(entry.instanceId)))
    }
    this.publish()
    // The list may already say these instances run (a poll that landed while the file was read).
    for (const tunnel of made) {
      const instance = this.options.findInstance(tunnel.instanceId)
      if (instance && isRunning(instance)) await this.resume(tunnel)
    }
  }

  /** Signed out: every tunnel closes (they stay remembered for the next sign-in). */
  signedOut(): void {
    this.generation++
    this.profileId = undefined
    if (this.tunnels.size === 0) return
    for (const tunnel of this.tunnels.values()) tunnel.close()
    this.tunnels.clear()
    this.publish()
  }

  /**
   * A new instance list: tunnels of Running instances come back (never asking the user: a
   * restore is no one's click), those of instances that left Running wait, and those of
   * instances the cloud no longer lists are forgotten.
   */
  async instances(snapshot: InstancesSnapshot): Promise<void> {
    if (!this.profileId || snapshot.fetchedAt === null) return
    const byId = new Map(snapshot.instances.map((instance) => [instance.instanceMetadata.instanceId, instance]))
    const gone: string[] = []
    for (const tunnel of [...this.tunnels.values()]) {
      const instance = byId.get(tunnel.instanceId)
      if (!instance) {
        tunnel.close()
        this.tunnels.delete(tunnel.tunnelId)
        gone.push(tunnel.tunnelId)
        continue
      }
      tunnel.instanceName = instance.instanceSpecInfo.name
      const running = isRunning(instance)
      // Stopped or failed: the cloud has no start call, so it will not run again; the window offers
      // to remove the tunnel. A restart on its way back (Starting) keeps the listener: the link
      // reconnects through it; one not listening yet waits, its line kept up to date.
      if (sshEnded(instance)) tunnel.end(endedLine(instance))
      else if (!tunnel.listening && !running) tunnel.describe(waitingLine(instance))
      else if (!tunnel.listening && running) await this.resume(tunnel)
    }
    if (gone.length > 0) {
      this.publish()
      await this.options.store.forget(gone)
    }
  }

  dispose(): void {
    this.disposed = true
    for (const tunnel of this.tunnels.values()) tunnel.close()
    this.tunnels.clear()
    this.options.clock.clearTimeout(this.countsTimer)
    if (this.publishSoon) clearImmediate(this.publishSoon)
  }

  // ------------------------------------------------------------------ internals

  private make(
    entry: { tunnelId: string; instanceId: string; remotePort: number; localPort: number },
    instance: Instance | undefined
  ): Tunnel {
    const label = TUNNEL_PRESETS.find((preset) => preset.port === entry.remotePort)?.label
    const tunnel = new Tunnel({
      ...entry,
      instanceName: instance?.instanceSpecInfo.name ?? entry.instanceId,
      ...(label ? { label } : {}),
      clock: this.options.clock,
      onChange: (_tunnel, what) => this.changed(what),
      onInstanceStopped: (stopped, message) => stopped.suspend(message)
    })
    this.tunnels.set(entry.tunnelId, tunnel)
    return tunnel
  }

  /** Brings a remembered tunnel back on its remembered port, or on a free one if that is taken. */
  private async resume(tunnel: Tunnel): Promise<void> {
    tunnel.askClient = undefined
    try {
      await this.bind(tunnel, undefined, tunnel.localPort)
      tunnel.attach(this.options.links.acquire(tunnel.instanceId, tunnel))
    } catch (error) {
      tunnel.suspend(`could not forward again: ${serverLine((error as Error).message, 300)}`)
    }
  }

  /**
   * Listens for `tunnel`: on `required` exactly (refused with a free port to offer), else on
   * `preferred` when free, else on any free port (with a note when it was the remembered one).
   */
  private async bind(tunnel: Tunnel, required: number | undefined, preferred: number): Promise<void> {
    try {
      await tunnel.listen(required ?? preferred)
      tunnel.note = undefined
    } catch (error) {
      if (!(error instanceof PortInUseError)) throw error
      if (required !== undefined) throw portRefusal(error, await suggestPort(required))
      await tunnel.listen(0)
      const why = error.why === 'in-use' ? 'was in use' : 'needs administrator rights'
      tunnel.note = `Port ${preferred} on this computer ${why}, so this tunnel listens on ${tunnel.localPort} instead.`
    }
  }

  private changed(what: 'state' | 'bytes'): void {
    if (what === 'state') {
      this.publishNow()
      return
    }
    this.countsTimer ??= this.options.clock.setTimeout(() => {
      this.countsTimer = undefined
      this.publish()
    }, COUNTS_EVERY_MS)
  }

  /** State changes come in bursts (a connection opens and a count moves): one message per turn. */
  private publishNow(): void {
    this.publishSoon ??= setImmediate(() => {
      this.publishSoon = undefined
      this.publish()
    })
  }

  private publish(): void {
    if (this.disposed) return
    this.options.publish(this.list())
  }
}

function waitingLine(instance: Instance): string {
  return `waiting for ${instance.instanceSpecInfo.name} to run (now ${statusWords(instance.instanceRuntimeInfo.status).toLowerCase()})`
}

function endedLine(instance: Instance): string {
  const name = instance.instanceSpecInfo.name
  const status = statusWords(instance.instanceRuntimeInfo.status).toLowerCase()
  return `${name} is ${status} and will not run again (the cloud has no call to start an instance), so this tunnel cannot open. Remove it; forward the port again on a new instance.`
}
