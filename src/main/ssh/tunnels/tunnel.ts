/**
 * One port tunnel: a listener on 127.0.0.1:<localPort> whose connections are carried to
 * <remotePort> inside the instance through SSH `direct-tcpip` on the instance's shared
 * connection (links.ts), as `ssh -L` does. The listener outlives the connection: while it is
 * being made (or made again after a drop) new connections wait for it, up to HOLD_MS; while the
 * link needs the user (a host key to check), they are refused at once. The tunnel counts open
 * connections and bytes each way, and tells its owner about every change.
 */
import { createServer, type Server, type Socket } from 'node:net'
import type { ClientChannel } from 'ssh2'
import type { Clock, TimerHandle } from '../../../shared/clock'
import type { TunnelInfo, TunnelState } from '../../../shared/contract-tunnels'
import type { ClientId } from '../../core-types'
import type { SshConnection } from '../links/connection'
import type { LinkLease, LinkStatus, LinkUser } from '../links/link-user'
import { LOOPBACK, listenLocal } from './local-port'
import { widenReceiveWindow } from '../data-path/wide-window'
import { serverLine } from '../../../shared/untrusted-text'

/** How long a connection made while the SSH connection is down waits for it. */
export const HOLD_MS = 30_000

/** `localPort`: the port to show while not listening (the one remembered). */
export interface TunnelOptions extends Pick<TunnelInfo, 'tunnelId' | 'instanceId' | 'instanceName' | 'remotePort' | 'label' | 'localPort'> {
  clock: Clock
  /** `what` says whether only the byte counts moved (owners may throttle those). */
  onChange: (tunnel: Tunnel, what: 'state' | 'bytes') => void
  /** The link told this tunnel the instance stopped: its owner sets it waiting. */
  onInstanceStopped: (tunnel: Tunnel, message: string) => void
}

interface Pair {
  socket: Socket
  channel?: ClientChannel
}

export class Tunnel implements LinkUser {
  readonly tunnelId: string
  readonly instanceId: string
  readonly remotePort: number
  askClient: ClientId | undefined
  instanceName: string
  localPort: number
  state: TunnelState = 'waiting'
  message: string
  /** Set when the remembered local port was taken and another was used. */
  note: string | undefined
  bytesIn = 0
  bytesOut = 0
  private server: Server | undefined
  private lease: LinkLease | undefined
  private connection: SshConnection | undefined
  private everOpen = false
  private readonly pairs = new Set<Pair>()
  private readonly held = new Map<Socket, TimerHandle>()

  constructor(private readonly options: TunnelOptions) {
    this.tunnelId = options.tunnelId
    this.instanceId = options.instanceId
    this.instanceName = options.instanceName
    this.remotePort = options.remotePort
    this.localPort = options.localPort
    this.message = `waiting for ${options.instanceName} to run`
  }

  get listening(): boolean {
    return this.server !== undefined
  }

  info(): TunnelInfo {
    const address = `${LOOPBACK}:${this.localPort}`
    return {
      tunnelId: this.tunnelId,
      instanceId: this.instanceId,
      instanceName: this.instanceName,
      remotePort: this.remotePort,
      ...(this.options.label ? { label: this.options.label } : {}),
      localPort: this.localPort,
      localAddress: address,
      url: `http://${address}/`,
      state: this.state,
      message: this.message,
      ...(this.note ? { note: this.note } : {}),
      connections: this.pairs.size + this.held.size,
      bytesIn: this.bytesIn,
      bytesOut: this.bytesOut
    }
  }

  /** Starts listening on `port` (0: any). Throws PortInUseError when it is taken. */
  async listen(port: number): Promise<void> {
    const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => this.accept(socket))
    this.localPort = await listenLocal(server, port)
    this.server = server
    this.set('starting', `connecting to ${this.instanceName}…`)
  }

  /** Joins the instance's link (see links.ts); the tunnel opens once the link is up. */
  attach(lease: LinkLease): void {
    this.lease = lease
  }

  /** The user asked again after a failure: the link tries now. */
  retry(askClient: ClientId | undefined): void {
    if (askClient) this.askClient = askClient
    this.lease?.reconnect()
  }

  /** Stops listening and leaves the link; remembered tunnels wait with `message`. */
  suspend(message: string): void {
    this.shutDown()
    this.set('waiting', message)
  }

  /** Its instance will not run again: stops listening, and says so (told, unlike a plain assignment). */
  end(message: string): void {
    this.shutDown()
    this.set('ended', message)
  }

  /** Not listening: a new line about why (the instance's status moved on). */
  describe(message: string): void {
    if (!this.server) this.set(this.state, message)
  }

  /** Stops for good. */
  close(): void {
    this.shutDown()
  }

  // ------------------------------------------------------------------ LinkUser

  connected(connection: SshConnection): void {
    this.connection = connection
    this.everOpen = true
    this.set('open', this.forwardingLine())
    for (const [socket, timer] of this.held) {
      this.options.clock.clearTimeout(timer)
      this.held.delete(socket)
      this.forward(socket, connection)
    }
  }

  disconnected(): void {
    this.connection = undefined
    // Channels on the old connection are gone with it; their local ends go too.
    for (const pair of this.pairs) pair.socket.destroy()
  }

  status(status: LinkStatus): void {
    if (status.reason === 'instance-stopped') {
      this.options.onInstanceStopped(this, status.message)
      return
    }
    if (!this.server) return
    if (status.state === 'failed') {
      for (const socket of [...this.held.keys()]) this.drop(socket)
      this.set('failed', status.message)
    } else if (status.state !== 'connected') {
      this.set(this.everOpen ? 'reconnecting' : 'starting', status.message)
    }
  }

  // ------------------------------------------------------------------ internals

  private forwardingLine(): string {
    return `forwarding ${LOOPBACK}:${this.localPort} to port ${this.remotePort} on ${this.instanceName}`
  }

  private accept(socket: Socket): void {
    socket.on('error', () => socket.destroy())
    if (this.state === 'failed' || !this.lease) {
      socket.destroy()
      return
    }
    if (this.connection) {
      this.forward(socket, this.connection)
      return
    }
    // Connections made while the SSH connection is coming wait for it, paused.
    socket.pause()
    this.held.set(
      socket,
      this.options.clock.setTimeout(() => this.drop(socket), HOLD_MS)
    )
    socket.once('close', () => {
      const timer = this.held.get(socket)
      if (timer === undefined) return
      this.options.clock.clearTimeout(timer)
      this.held.delete(socket)
      this.changed('state')
    })
    this.changed('state')
  }

  private drop(socket: Socket): void {
    const timer = this.held.get(socket)
    if (timer !== undefined) this.options.clock.clearTimeout(timer)
    this.held.delete(socket)
    socket.destroy()
    this.changed('state')
  }

  private forward(socket: Socket, connection: SshConnection): void {
    const pair: Pair = { socket }
    this.pairs.add(pair)
    this.changed('state')
    socket.once('close', () => {
      pair.channel?.close()
      if (this.pairs.delete(pair)) this.changed('state')
    })
    connection.client.forwardOut(LOOPBACK, socket.remotePort ?? 0, 'localhost', this.remotePort, (error, channel) => {
      if (error) {
        socket.destroy()
        if (this.state === 'open') {
          this.set(
            'open',
            `${this.forwardingLine()}. Nothing answered on port ${this.remotePort} inside the instance just now (${serverLine(error.message.replace(/^\(SSH\) /, ''), 300)}); start the app there, then reload.`
          )
        }
        return
      }
      if (socket.destroyed) {
        channel.close()
        return
      }
      pair.channel = channel
      widenReceiveWindow(channel)
      if (this.state === 'open' && this.message !== this.forwardingLine()) this.set('open', this.forwardingLine())
      socket.on('data', (chunk: Buffer) => {
        this.bytesOut += chunk.length
        this.changed('bytes')
      })
      channel.on('data', (chunk: Buffer) => {
        this.bytesIn += chunk.length
        this.changed('bytes')
      })
      channel.on('error', () => socket.destroy())
      channel.once('close', () => socket.destroy())
      socket.pipe(channel)
      channel.pipe(socket)
      socket.resume()
    })
  }

  private shutDown(): void {
    const server = this.server
    this.server = undefined
    server?.close()
    for (const socket of [...this.held.keys()]) this.drop(socket)
    for (const pair of this.pairs) pair.socket.destroy()
    this.connection = undefined
    this.lease?.release()
    this.lease = undefined
    this.everOpen = false
  }

  private set(state: TunnelState, message: string): void {
    if (this.state === state && this.message === message) return
    this.state = state
    this.message = message
    this.changed('state')
  }

  private changed(what: 'state' | 'bytes'): void {
    this.options.onChange(this, what)
  }
}
