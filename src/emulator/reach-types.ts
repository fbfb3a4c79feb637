/**
 * The seam between the emulator's HTTP API (this folder) and what makes an instance reachable
 * (SSH server, notebook page, port forwarders in ./reach/). The API calls these hooks as
 * instances start and stop; reach asks back through ReachContext. Keeping it an interface lets
 * the API run and be tested with no SSH at all.
 */
import type { Clock } from '../shared/clock'
import type { EmuGpu } from './gpus'

/** SFTP faults an instance can be given (reach/sftp-server.ts says how each is made). */
export type SftpFault = 'none' | 'read-only' | 'disk-full'

/** A tmux client attached on an instance: its name (the path of its terminal), and whether that terminal is held up (faults.stallTerminals). */
export interface TmuxClient {
  name: string
  held: boolean
}

export interface ReachContext {
  clock: Clock
  /** Directory of the state file, for the notebook certificate; absent when state is in memory. */
  stateDir?: string
  /** A token the API would accept right now (valid signature, unexpired in emulator time, not revoked). */
  verifyToken(token: string): { username: string } | undefined
  instance(instanceId: string): EmuInstanceView | undefined
  /** OpenSSH public key lines registered for the user. */
  sshKeysFor(username: string): string[]
  /** The instance's GPUs as its `nvidia-smi` reports them (gpus.ts); absent: none. */
  gpus?(instanceId: string): EmuGpu[]
  /**
   * Reach is about to listen on this node port: the emulator stops keeping it (ports.ts keeps an
   * instance's ports while nothing listens on them, so no one else is handed them). Optional.
   */
  takePort?(nodePort: number): void
  /** Reach no longer listens on it: the emulator keeps it for the instance's next run. Optional. */
  givePortBack?(nodePort: number): void
  log(line: string): void
}

export interface EmuInstanceView {
  instanceId: string
  /** The user name that owns the instance (login name). */
  owner: string
  /** The Linux user inside the instance that SSH logs in as. */
  instanceUsername: string
  subUrl: string
  nodePorts: { port: number; address: string; nodePort: number }[]
}

export interface Reach {
  /** e.g. "127.0.0.1:40123": every region's `domain` becomes this at runtime. */
  notebookHost: string
  /** "127.0.0.1": every region's sshAddress and every nodePorts.address. */
  sshAddress: string
  /** Bind SSH (the port-22 entry) and forwarders on their nodePorts. */
  instanceRunning(instance: EmuInstanceView): Promise<void>
  /** The instance left Running: stopped, failed, terminated. */
  instanceStopped(instanceId: string): Promise<void>
  /** The instance's GPU readings changed: its `nvidia-smi` answers the new ones. */
  gpusChanged?(instanceId: string): Promise<void>
  /** Per instance: SSH logins and commands (exec) served so far. */
  sshStats?(): Record<string, { connections: number; execs: number }>
  /** Makes the instance's SFTP fail as a full disk or a read-only folder would; `none` ends it. Optional. */
  setSftpFault?(instanceId: string, fault: SftpFault): void
  /** Whether the instance's new terminals start with their output held up; `false` lets them go. Optional. */
  setTerminalStall?(instanceId: string, stalled: boolean): Promise<void>
  /** The tmux clients attached on the instance's tmux servers. Optional. */
  tmuxClients?(instanceId: string): Promise<TmuxClient[]>
  /** Whether the instance's shells find tmux. Optional. */
  setTmuxPresent?(instanceId: string, present: boolean): Promise<void>
  /** Ends every instance's tmux servers (what outlives its SSH sessions). Optional. */
  endSessions?(): Promise<void>
  /** Drops every SSH client's TCP connection to the instance. Optional. */
  dropSshConnections?(instanceId: string): void
  close(): Promise<void>
}

export type ReachFactory = (context: ReachContext) => Promise<Reach>
