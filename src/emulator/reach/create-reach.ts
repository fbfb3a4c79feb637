/**
 * The emulator's reachable endpoints for running instances (spec: "A running instance is reached
 * in three ways"): per instance an SSH server (or a forwarder to `--ssh-backend`) on the nodePort
 * of its port-22 entry and a TCP forwarder per other node port; for all instances one HTTPS
 * notebook endpoint. Everything binds 127.0.0.1.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EmuInstanceView, Reach, ReachContext, TmuxClient } from '../reach-types'
import { loadOrCreateHostKey, type HostKey } from './host-key'
import { loadOrCreateNotebookCertificate, NOTEBOOK_CERT_FILE, type NotebookCertificate } from './notebook-certificate'
import { startNotebookServer } from './notebook-server'
import { startInstanceApps } from './instance-apps'
import type { SftpFault } from './sftp-server'
import { startInstanceSshServer, type SshStats } from './ssh-server'
import { startTcpForwarder, type ForwardTarget } from './tcp-forwarder'
import { writeGpuFiles } from './gpu-files'
import { tmuxClientsIn, endTmuxServers, setTmuxMissing, tmuxDirFor } from './instance-tmux'
import { TerminalStalls } from './terminal-stall'

export interface ReachOptions {
  /** Point every instance's SSH node port at this existing SSH server instead of the built-in one. */
  sshBackend?: ForwardTarget
  /** Port of the notebook endpoint; 0 (default) picks a free one. */
  notebookPort?: number
}

/** What a caller needs besides the hooks: the certificate to pin and the host key to trust. */
export interface EmulatorReach extends Reach {
  /** The notebook certificate, PEM: the only CA a client should trust for `notebookHost`. */
  notebookCertPem: string
  /** SHA-256 of the notebook certificate's DER, lowercase hex (SandboxInfo.notebookCertSha256). */
  notebookCertSha256: string
  /** Where that PEM is on disk (for `curl --cacert`). */
  notebookCertPath: string
  /** The built-in SSH servers' host key (`ssh-ed25519 AAAA…`); absent with `--ssh-backend`. */
  sshHostPublicKey?: string
  /**
   * Makes the instance's SFTP fail as a full disk or a read-only folder would (sftp-server.ts),
   * from its next SFTP session on; `none` ends the fault. Built-in SSH servers only.
   */
  setSftpFault(instanceId: string, fault: SftpFault): void
  /** From now on the instance's new terminals start with their output held up, until `false` lets them all go (terminal-stall.ts). */
  setTerminalStall(instanceId: string, stalled: boolean): Promise<void>
  /** The tmux clients attached on the instance's tmux servers now; `held`: its terminal is held up. */
  tmuxClients(instanceId: string): Promise<TmuxClient[]>
  /** Whether the instance has tmux (instance-tmux.ts): `false` makes its shells answer "tmux: not found". */
  setTmuxPresent(instanceId: string, present: boolean): Promise<void>
  /**
   * Ends what runs in every instance beyond its SSH sessions (its tmux servers), as stopping them
   * all would. Without a state file it happens on close; with one, the instances' sessions outlive
   * the emulator (they keep running while the app is closed) and a test ends them itself.
   */
  endSessions(): Promise<void>
  /** Drops every SSH client's TCP connection to the instance at once (a network that goes away). */
  dropSshConnections(instanceId: string): void
}

/** Beside the state file: `<stateDir>/emulator-reach/`. */
export const REACH_FOLDER = 'emulator-reach'

interface Endpoint {
  close(): Promise<void>
  /** The SSH server's: drops its clients' TCP connections. */
  dropConnections?(): void
}

export function createReach(options: ReachOptions = {}): (context: ReachContext) => Promise<EmulatorReach> {
  return async (context) => {
    // Everything reach keeps (host key, certificate, instance homes) sits in one folder beside the
    // state file, so it lives as long as the state does; with no state, a temp folder removed on close.
    const temporaryRoot = context.stateDir === undefined ? await mkdtemp(join(tmpdir(), 'cloud-tray-emulator-')) : undefined
    const reachDir = context.stateDir === undefined ? temporaryRoot! : join(context.stateDir, REACH_FOLDER)
    const homesRoot = join(reachDir, 'homes')
    const homeOf = (instanceId: string): string => join(homesRoot, safeFolderName(instanceId))
    // Per instance, first on its sessions' PATH: the emulated nvidia-smi and its data (gpu-files.ts).
    const binDirOf = (instanceId: string): string => join(reachDir, 'bin', safeFolderName(instanceId))
    const writeGpus = async (instanceId: string): Promise<void> => {
      if (options.sshBackend || !context.gpus) return
      await writeGpuFiles(binDirOf(instanceId), context.gpus(instanceId))
    }
    const certificate: NotebookCertificate = await loadOrCreateNotebookCertificate(reachDir, new Date(context.clock.now()))
    const hostKey: HostKey | undefined = options.sshBackend ? undefined : await loadOrCreateHostKey(reachDir)
    const notebook = await startNotebookServer(
      certificate,
      {
        verifyToken: (token) => context.verifyToken(token),
        ownerOf: (id) => context.instance(id)?.owner,
        log: context.log
      },
      options.notebookPort ?? 0
    )
    const notebookCertPath = join(reachDir, NOTEBOOK_CERT_FILE)
    context.log(`notebook pages: https://${notebook.host}/<subUrl>, certificate ${notebookCertPath} (SHA-256 ${certificate.sha256})`)
    if (hostKey) context.log(`instance SSH host key: ${hostKey.publicKey}`)
    else context.log(`instance SSH ports forward to ${options.sshBackend!.host}:${options.sshBackend!.port}`)

    const endpoints = new Map<string, Endpoint[]>()
    /** Per instance, across its runs: logins and commands its SSH server served (the probe benchmark counts them). */
    const sshStats = new Map<string, SshStats>()
    const statsOf = (instanceId: string): SshStats => {
      let stats = sshStats.get(instanceId)
      if (!stats) sshStats.set(instanceId, (stats = { connections: 0, execs: 0 }))
      return stats
    }
    const sftpFaults = new Map<string, SftpFault>()
    const stalls = new TerminalStalls()
    let closed = false
    /** Per instance, so a stop that arrives while its start is still binding waits for it. */
    const queues = new Map<string, Promise<void>>()
    const serially = (instanceId: string, work: () => Promise<void>): Promise<void> => {
      const next = (queues.get(instanceId) ?? Promise.resolve()).then(work)
      const settled = next.catch(() => {})
      queues.set(instanceId, settled)
      void settled.then(() => {
        if (queues.get(instanceId) === settled) queues.delete(instanceId)
      })
      return next
    }

    const closeEndpoints = async (instanceId: string): Promise<void> => {
      const open = endpoints.get(instanceId) ?? []
      endpoints.delete(instanceId)
      await Promise.all(open.map((endpoint) => endpoint.close()))
    }

    const start = async (instance: EmuInstanceView): Promise<void> => {
      await closeEndpoints(instance.instanceId)
      const open: Endpoint[] = []
      endpoints.set(instance.instanceId, open)
      const apps = await startInstanceApps(instance.instanceId)
      open.push(apps)
      for (const entry of instance.nodePorts) {
        try {
          open.push(portKeptAfter(entry.nodePort, await startEndpoint(instance, entry, apps.target)))
        } catch (error) {
          context.givePortBack?.(entry.nodePort)
          // One port that cannot bind must not take the instance's other ways in down with it.
          context.log(
            `instance ${instance.instanceId}: node port ${entry.nodePort} (port ${entry.port}) is not reachable: ${(error as Error).message}`
          )
        }
      }
    }

    const startEndpoint = async (
      instance: EmuInstanceView,
      entry: EmuInstanceView['nodePorts'][number],
      inside: (port: number) => ForwardTarget
    ): Promise<Endpoint> => {
      const forwardTo = entry.port !== 22 ? inside(entry.port) : options.sshBackend
      if (forwardTo) {
        context.takePort?.(entry.nodePort)
        return startTcpForwarder(entry.nodePort, forwardTo, context.log)
      }
      const home = homeOf(instance.instanceId)
      await mkdir(home, { recursive: true, mode: 0o700 })
      // tmux falls back to the shared /tmp when its folder is missing: it must exist first.
      await mkdir(tmuxDirFor(home), { recursive: true, mode: 0o700 })
      await writeGpus(instance.instanceId)
      // As late as can be: the port is free for anyone from here until the server listens.
      context.takePort?.(entry.nodePort)
      return startInstanceSshServer({
        port: entry.nodePort,
        hostKey: hostKey!.privateKey,
        instanceId: instance.instanceId,
        username: instance.instanceUsername,
        // Read at each login: the owner's keys as the account has them now.
        authorizedKeys: () => context.sshKeysFor(context.instance(instance.instanceId)?.owner ?? instance.owner),
        home,
        ...(context.gpus ? { binDir: binDirOf(instance.instanceId) } : {}),
        tmuxDir: tmuxDirFor(home),
        stats: statsOf(instance.instanceId),
        log: context.log,
        inside,
        sftpFault: () => sftpFaults.get(instance.instanceId) ?? 'none',
        terminalStall: stalls.forInstance(instance.instanceId)
      })
    }

    /** Once the endpoint stops listening, the emulator keeps its port for the instance's next run. */
    const portKeptAfter = (nodePort: number, endpoint: Endpoint): Endpoint => ({
      close: async () => {
        await endpoint.close()
        context.givePortBack?.(nodePort)
      },
      ...(endpoint.dropConnections ? { dropConnections: () => endpoint.dropConnections!() } : {})
    })

    /** Every instance that ever had a home here. */
    const endSessions = async (): Promise<void> => {
      if (options.sshBackend) return
      const homes = await readdir(homesRoot).catch(() => [] as string[])
      await Promise.all(homes.map((name) => endTmuxServers(tmuxDirFor(join(homesRoot, name)))))
    }

    return {
      notebookHost: notebook.host,
      sshAddress: '127.0.0.1',
      notebookCertPem: certificate.certPem,
      notebookCertPath,
      notebookCertSha256: certificate.sha256,
      ...(hostKey ? { sshHostPublicKey: hostKey.publicKey } : {}),
      setSftpFault(instanceId, fault) {
        if (!hostKey) throw new Error('SFTP faults need the built-in SSH servers; with --ssh-backend the backend serves SFTP.')
        if (fault === 'none') sftpFaults.delete(instanceId)
        else sftpFaults.set(instanceId, fault)
      },
      // The notebook route changes at once, in call order: the API may list the instance as
      // Running in its very next answer, before the ports below have finished binding.
      instanceRunning: (instance) => {
        if (closed) return Promise.resolve()
        notebook.add(instance.instanceId, instance.subUrl)
        return serially(instance.instanceId, () => start(instance))
      },
      instanceStopped: (instanceId) => {
        notebook.remove(instanceId)
        // A stopped machine's processes end with it: its tmux sessions too.
        return serially(instanceId, async () => {
          await closeEndpoints(instanceId)
          if (!options.sshBackend) await endTmuxServers(tmuxDirFor(homeOf(instanceId)))
        })
      },
      setTerminalStall(instanceId, stalled) {
        if (!hostKey) throw new Error('Held-up terminals need the built-in SSH servers; with --ssh-backend the backend has its own.')
        return stalls.set(instanceId, stalled)
      },
      async tmuxClients(instanceId) {
        if (options.sshBackend) return []
        const names = await tmuxClientsIn(tmuxDirFor(homeOf(instanceId)))
        return names.map((name) => ({ name, held: stalls.holds(name) }))
      },
      async setTmuxPresent(instanceId, present) {
        if (!hostKey) throw new Error('A missing tmux needs the built-in SSH servers; with --ssh-backend the backend has its own.')
        await mkdir(binDirOf(instanceId), { recursive: true, mode: 0o700 })
        await setTmuxMissing(binDirOf(instanceId), !present)
      },
      endSessions,
      dropSshConnections(instanceId) {
        for (const endpoint of endpoints.get(instanceId) ?? []) endpoint.dropConnections?.()
      },
      sshStats: () => Object.fromEntries([...sshStats].map(([instanceId, stats]) => [instanceId, { ...stats }])),
      gpusChanged: (instanceId) =>
        closed || !endpoints.has(instanceId) ? Promise.resolve() : serially(instanceId, () => writeGpus(instanceId)),
      async close() {
        closed = true
        // Starts still binding finish first, so nothing is left listening after close.
        await Promise.all([...queues.values()])
        await Promise.all([...endpoints.keys()].map((id) => closeEndpoints(id)))
        await notebook.close()
        // Shells may still write into their homes as they end: tried again, not left behind.
        if (temporaryRoot !== undefined) {
          await endSessions()
          await rm(temporaryRoot, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
        }
      }
    }
  }
}

/** Instance IDs come from the API; keep them from naming a path outside the homes folder. */
export function safeFolderName(instanceId: string): string {
  const cleaned = instanceId.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_')
  return cleaned === '' ? '_' : cleaned.slice(0, 100)
}
