/**
 * The built-in SSH server of one running instance: an ssh2 Server on 127.0.0.1:<nodePort> that
 * lets in the instance's user with the owner's registered public keys, and serves sessions
 * (ssh-session.ts: shells, exec, SFTP) and direct-tcpip to ports inside the instance
 * (instance-apps.ts decides what answers there).
 */
import { connect, createServer, isIP, type Socket } from 'node:net'
import ssh2 from 'ssh2'
import type { Connection } from 'ssh2'
import { decidePublicKey, parseAuthorizedKeys } from './authorized-keys'
import { closeServer, listenOnLoopback } from './listen'
import { serveSession } from './ssh-session'
import type { SftpFault } from './sftp-server'
import type { TerminalStall } from './terminal-stall'
import type { ForwardTarget } from './tcp-forwarder'

export interface InstanceSshServerOptions {
  port: number
  hostKey: string
  instanceId: string
  /** The login name (`instanceUsername`). */
  username: string
  /** The owner's registered public keys, read at each login so a key added later works at once. */
  authorizedKeys(): string[]
  home: string
  /** Put first on the sessions' PATH: the instance's own commands (the emulated nvidia-smi). */
  binDir?: string
  /** The instance's own tmux socket folder (instance-tmux.ts). */
  tmuxDir?: string
  /** Counted into (kept across the instance's runs by the caller); default: this server's own. */
  stats?: SshStats
  log(line: string): void
  /** Where a direct-tcpip to `port` inside the instance goes; default this machine's 127.0.0.1:port. */
  inside?: (port: number) => ForwardTarget
  /** The SFTP fault a test asked for (sftp-server.ts). */
  sftpFault?: () => SftpFault
  /** Whether new terminals start held up (terminal-stall.ts). */
  terminalStall?: TerminalStall
}

export interface InstanceSshServer {
  readonly port: number
  /** Logins accepted and commands run (exec requests) since the server started. */
  readonly stats: SshStats
  /** Drops every client's TCP connection at once, as a network that goes away would (no SSH goodbye). */
  dropConnections(): void
  close(): Promise<void>
}

/** What an instance's SSH server has served: how many logins, how many commands (exec). */
export interface SshStats {
  connections: number
  execs: number
}

export async function startInstanceSshServer(options: InstanceSshServerOptions): Promise<InstanceSshServer> {
  const stats: SshStats = options.stats ?? { connections: 0, execs: 0 }
  const clients = new Set<Connection>()
  const sessions = new Set<{ close(): void }>()
  const sockets = new Set<Socket>()
  const { log } = options
  const server = new ssh2.Server({ hostKeys: [options.hostKey] }, (client) => {
    clients.add(client)
    client.on('close', () => clients.delete(client))
    client.on('error', (error) => log(`ssh ${options.instanceId}: ${error.message}`))
    client.on('authentication', (context) => {
      if (context.method !== 'publickey' || context.username !== options.username) return context.reject(['publickey'])
      const keys = parseAuthorizedKeys(options.authorizedKeys(), (line) =>
        log(`ssh ${options.instanceId}: skipped an unreadable registered key (${line.slice(0, 24)}…)`)
      )
      if (decidePublicKey(context, keys) === 'accept') context.accept()
      else context.reject(['publickey'])
    })
    client.on('ready', () => {
      stats.connections++
      // One listener per connection ends its sessions, not one per session: a window with a dozen
      // tabs on one instance would otherwise pass EventEmitter's limit of ten and print its warning.
      const open = new Set<{ close(): void }>()
      client.once('close', () => {
        for (const served of open) {
          served.close()
          sessions.delete(served)
        }
        open.clear()
      })
      client.on('session', (accept) => {
        const session = accept()
        session.once('exec', () => stats.execs++)
        const served = serveSession(session, {
          home: options.home,
          username: options.username,
          ...(options.binDir ? { binDir: options.binDir } : {}),
          ...(options.tmuxDir ? { tmuxDir: options.tmuxDir } : {}),
          log,
          ...(options.sftpFault ? { sftpFault: options.sftpFault } : {}),
          ...(options.terminalStall ? { terminalStall: options.terminalStall } : {})
        })
        sessions.add(served)
        open.add(served)
        session.once('close', () => {
          open.delete(served)
          sessions.delete(served)
        })
      })
      client.on('tcpip', (accept, reject, info) => {
        if (!isLoopback(info.destIP)) return reject()
        const target = options.inside?.(info.destPort) ?? {
          host: info.destIP === 'localhost' ? '127.0.0.1' : info.destIP,
          port: info.destPort
        }
        const socket = connect(target)
        sockets.add(socket)
        socket.once('close', () => sockets.delete(socket))
        socket.once('error', () => {
          socket.destroy()
          if (!accepted) reject()
        })
        let accepted = false
        socket.once('connect', () => {
          accepted = true
          const channel = accept()
          socket.pipe(channel).pipe(socket)
          channel.on('close', () => socket.destroy())
        })
      })
    })
  })
  // Clients' sockets are accepted here and handed to ssh2, so a test can drop them (dropConnections).
  const tcpSockets = new Set<Socket>()
  const tcp = createServer((socket) => {
    // Interactive: a key's echo goes out at once, as OpenSSH's sshd does for a session (no Nagle).
    socket.setNoDelay(true)
    tcpSockets.add(socket)
    socket.once('close', () => tcpSockets.delete(socket))
    server.injectSocket(socket)
  })
  const port = await listenOnLoopback(tcp, options.port)
  log(`ssh ${options.instanceId}: listening on 127.0.0.1:${port} for ${options.username}`)
  return {
    port,
    stats,
    dropConnections() {
      for (const socket of tcpSockets) socket.destroy()
    },
    async close() {
      for (const session of sessions) session.close()
      for (const socket of sockets) socket.destroy()
      for (const client of clients) client.end()
      await closeServer(tcp)
    }
  }
}

/** direct-tcpip stays on this machine: an instance's "inside" is loopback here. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true
  if (isIP(host) === 4) return host.startsWith('127.')
  return host === '::1' || host === '0:0:0:0:0:0:0:1'
}
