/**
 * The emulated cloud, on loopback: `startEmulator(options)` → `{ baseUrl, controlUrl, controlSecret, close(), control }`.
 * Wiring only; each piece lives in its own file (auth, instances, volumes, server, control, ...).
 */
import { dirname, join } from 'node:path'
import { systemClock, type Clock } from '../shared/clock'
import { ApiError } from './api-error'
import { createApiRoutes } from './api-routes'
import { Auth, generateSigningKeyPem } from './auth'
import { Meter, STARTING_WALLET, Wallets, type WalletState } from './billing'
import { DEFAULT_CATALOG, type Catalog } from './catalog'
import { createControl, type EmulatorControl } from './control'
import { createControlRoutes } from './control-http'
import { Faults } from './faults'
import { GpuBoard } from './gpus'
import type { EmuInstance, ReachAddresses } from './instance-record'
import { InstanceStore } from './instances'
import { Listener } from './listener'
import { NodePorts } from './ports'
import { RequestCounter } from './request-counter'
import type { EmuInstanceView, Reach, ReachContext, ReachFactory } from './reach-types'
import { Scheduler } from './scheduler'
import { createApiHandler, createControlHandler } from './server'
import { createSecret } from '../shared/node/secret'
import { writeFileAtomic } from '../shared/node/atomic-write'
import { StateWriter, answerAfterPersisted, loadState } from './state-store'
import { VolumeStore } from './volumes'

export type { Catalog } from './catalog'
export { DEFAULT_CATALOG, NEVER_PULLING_IMAGE_ID, parseCatalog } from './catalog'
export type { BalanceAnswer, WalletState } from './billing'
export type { EmulatorControl, FaultControl } from './control'
export type { SeedOverrides, StatusExtra } from './instances'
export type { EmuInstanceView, Reach, ReachContext, ReachFactory } from './reach-types'

export interface EmulatorOptions {
  /** 0 or absent: a free port. Always bound on 127.0.0.1 only. */
  port?: number
  /** The control plane's own port; 0 or absent: a free one. Always bound on 127.0.0.1 only. */
  controlPort?: number
  /** Default [{ username: 'demo', password: 'demo' }]. */
  users?: { username: string; password: string }[]
  /**
   * Persist users' instances and volumes here (atomic writes); absent: memory only. The control
   * secret of this run is written beside it, to CONTROL_SECRET_FILE (mode 0600).
   */
  statePath?: string
  /** Replaces DEFAULT_CATALOG. */
  catalog?: Catalog
  /** Total Initializing → Running time in emulator ms; each step takes a share. Default 6000. */
  bootMs?: number
  /** Stopping → Stopped time. Default a quarter of bootMs. */
  stopMs?: number
  /** exp − iat of issued tokens. Default 86400. */
  tokenTtlSeconds?: number
  /** How long an account stays locked after 5 bad passwords. Default 15 minutes. */
  lockoutMs?: number
  /** Volume Pending → Available. Default 2000. */
  volumeReadyMs?: number
  clock?: Clock
  /** user name → OpenSSH public key lines. */
  sshKeys?: Record<string, string[]>
  /** Console API keys accepted as `X-API-Key` (`--api-key USER:KEY`); the user must exist. */
  apiKeys?: { username: string; key: string }[]
  /** What every account holds at first (default STARTING_WALLET: $100 and a $5 voucher). */
  startingWallet?: WalletState
  /** Real SSH / notebook / forwarders (src/emulator/reach); absent: none. */
  reach?: ReachFactory
  log?: (line: string) => void
  /**
   * PKCS#8 PEM of the RS256 signing key. Absent: the state file's key, else a fresh 2048-bit key
   * (~0.1–0.5 s to generate). Suites that start many emulators pass `await sharedTestSigningKey()`.
   */
  signingKeyPem?: string
}

export interface Emulator {
  /** http://127.0.0.1:N/api */
  baseUrl: string
  /** http://127.0.0.1:M/__emulator: the control plane, on its own port, needing `controlSecret`. */
  controlUrl: string
  /** This run's secret for the control plane: `Authorization: Bearer <controlSecret>`. */
  controlSecret: string
  /** Where the secret was written (beside the state file), when there is a state file. */
  controlSecretPath?: string
  port: number
  close(): Promise<void>
  control: EmulatorControl
}

let sharedKey: Promise<string> | undefined
/** One signing key per process, generated on first use: keeps test suites from paying RSA key generation per emulator. */
export function sharedTestSigningKey(): Promise<string> {
  sharedKey ??= generateSigningKeyPem()
  return sharedKey
}

export const DEFAULT_USERS = [{ username: 'demo', password: 'demo' }]
/** The control secret's file name, beside the state file. */
export const CONTROL_SECRET_FILE = 'control-secret'
export const DEFAULT_BOOT_MS = 6000
export const DEFAULT_LOCKOUT_MS = 15 * 60_000
export const DEFAULT_VOLUME_READY_MS = 2000
export const DEFAULT_TOKEN_TTL_SECONDS = 86_400

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const clock = options.clock ?? systemClock()
  const log = options.log ?? (() => {})
  const catalog = structuredClone(options.catalog ?? DEFAULT_CATALOG)
  const bootMs = nonNegative(options.bootMs ?? DEFAULT_BOOT_MS, 'bootMs')
  const lockoutMs = nonNegative(options.lockoutMs ?? DEFAULT_LOCKOUT_MS, 'lockoutMs')
  const tokenTtlSeconds = nonNegative(options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS, 'tokenTtlSeconds')

  const saved = options.statePath ? loadState(options.statePath) : undefined
  const scheduler = new Scheduler(clock, (error) => log(`timer failed: ${(error as Error)?.stack ?? String(error)}`))
  const auth = new Auth(saved?.signingKeyPem ?? options.signingKeyPem ?? (await generateSigningKeyPem()), options.users ?? DEFAULT_USERS, {
    now: () => scheduler.now(),
    tokenTtlSeconds,
    lockoutMs
  })
  for (const { username, key } of options.apiKeys ?? []) auth.addApiKey(username, key)
  if (saved?.apiKeys) auth.restoreApiKeyHashes(saved.apiKeys)
  const wallets = new Wallets(options.startingWallet ?? STARTING_WALLET)
  if (saved?.wallets) wallets.restore(saved.wallets)
  const meter = new Meter(wallets)
  const sshKeys = new Map<string, string[]>(Object.entries(options.sshKeys ?? {}).map(([user, keys]) => [user, [...keys]]))

  let reach: Reach | undefined
  let writer: StateWriter | undefined
  const reachAddresses = (): ReachAddresses | undefined =>
    reach ? { notebookHost: reach.notebookHost, sshAddress: reach.sshAddress } : undefined
  const reachFailed = (what: string) => (error: unknown) => log(`reach: ${what} failed: ${(error as Error)?.message ?? error}`)

  /** Instances whose reach is still starting (binding their SSH server and forwarders), by id. */
  const starts = new Map<string, Promise<void>>()
  const gpus = new GpuBoard()
  const nodePorts = new NodePorts(log)
  // Held only where reach will listen: with no reach nothing ever does, and a seed's unreachable
  // instances (up to thousands) never get a listener.
  const holdsPorts = options.reach !== undefined
  const instances = new InstanceStore(
    scheduler,
    { bootMs, stopMs: options.stopMs ?? bootMs / 4 },
    {
      running: (record) => {
        if (!reach) return
        const { instanceId } = record
        const started = reach.instanceRunning(viewOf(record, reach)).catch(reachFailed(`starting ${instanceId}`))
        starts.set(instanceId, started)
        void started.then(() => {
          if (starts.get(instanceId) === started) starts.delete(instanceId)
        })
      },
      leftRunning: (instanceId) => {
        // What ran on its GPUs ended with it: back to idle when it runs again.
        gpus.clear(instanceId)
        reach?.instanceStopped(instanceId).catch(reachFailed(`stopping ${instanceId}`))
      },
      changed: () => writer?.changed(),
      statusChanging: (record) => meter.charge(record, scheduler.now())
    },
    { allocate: (reachable) => nodePorts.allocate(holdsPorts && reachable), release: (port) => nodePorts.free(port) }
  )
  const volumes = new VolumeStore(scheduler, nonNegative(options.volumeReadyMs ?? DEFAULT_VOLUME_READY_MS, 'volumeReadyMs'), () =>
    writer?.changed()
  )
  if (saved) {
    for (const record of saved.instances)
      for (const entry of record.nodePorts) nodePorts.reserve(entry.nodePort, holdsPorts && !record.unreachable)
    volumes.restore(saved.volumes)
  }

  const faults = new Faults()
  const counter = new RequestCounter()
  const api = createApiRoutes({
    auth,
    instances,
    volumes,
    catalog: () => catalog,
    reach: reachAddresses,
    lockoutMs,
    wallets,
    meter,
    now: () => scheduler.now()
  })
  // Nothing is acknowledged before it is on disk (state-store.ts): each answer waits for the write.
  // A route's answer may be rewritten to play a hostile service (faults.rewriteAnswers).
  const persisted = (): Promise<void> => writer?.persisted() ?? Promise.resolve()
  for (const routes of [api.authed, api.gets]) {
    for (const [route, handler] of routes) {
      const durable = answerAfterPersisted(persisted, handler)
      routes.set(route, async (body, username) => faults.rewrite(route, await durable(body, username)))
    }
  }
  // Control lives on its own listener, so taking the API down (faults/down) leaves it up.
  const controlSecret = createSecret()
  const controlHost = (): string => `127.0.0.1:${controlListener.boundPort}`
  const apiHandler = createApiHandler({
    auth,
    api,
    faults,
    scheduler,
    counter,
    ownHost: (): string => `127.0.0.1:${listener.boundPort}`,
    controlUrl: () => `http://${controlHost()}/__emulator`,
    log
  })
  const listener: Listener = new Listener((request, response) => {
    // The Date header tells clients the server's time (create-once reads the clock offset from
    // it); it comes from the same clock as createAtUnixMs, as on a real service.
    response.setHeader('date', new Date(scheduler.now()).toUTCString())
    apiHandler(request, response)
  })
  const control = createControl({
    auth,
    instances,
    volumes,
    scheduler,
    faults,
    listener,
    catalog,
    reach: reachAddresses,
    setSftpFault: (instanceId, fault) => {
      if (!reach?.setSftpFault)
        throw new ApiError(409, {
          message: 'SFTP faults need the emulator’s own SSH servers (start it with reach, without --ssh-backend).'
        })
      reach.setSftpFault(instanceId, fault)
    },
    setTmuxPresent: async (instanceId, present) => {
      if (!reach?.setTmuxPresent)
        throw new ApiError(409, {
          message: 'A missing tmux needs the emulator’s own SSH servers (start it with reach, without --ssh-backend).'
        })
      await reach.setTmuxPresent(instanceId, present)
    },
    endSessions: async () => {
      await reach?.endSessions?.()
    },
    dropSsh: (instanceId) => {
      if (!reach?.dropSshConnections)
        throw new ApiError(409, { message: 'Dropping SSH connections needs the emulator’s own SSH servers (start it with reach).' })
      reach.dropSshConnections(instanceId)
    },
    setTerminalStall: async (instanceId, stalled) => {
      if (!reach?.setTerminalStall)
        throw new ApiError(409, {
          message: 'Held-up terminals need the emulator’s own SSH servers (start it with reach, without --ssh-backend).'
        })
      await reach.setTerminalStall(instanceId, stalled)
    },
    tmuxClients: async (instanceId) => (await reach?.tmuxClients?.(instanceId)) ?? [],
    sshKeys,
    counter,
    gpus,
    gpusChanged: async (instanceId) => {
      await reach?.gpusChanged?.(instanceId)
    },
    sshStats: () => reach?.sshStats?.() ?? {},
    reachable: async (instanceIds) => {
      await Promise.all(instanceIds.map((instanceId) => starts.get(instanceId)))
    },
    wallets,
    meter,
    changed: () => writer?.changed()
  })
  const controlListener: Listener = new Listener(
    createControlHandler({
      routes: durableControl(createControlRoutes(control, log), persisted),
      secret: controlSecret,
      ownHost: controlHost,
      log
    })
  )

  if (options.statePath) {
    const statePath = options.statePath
    writer = new StateWriter(
      statePath,
      () => ({
        version: 1,
        signingKeyPem: auth.signingKeyPem,
        instances: instances.all(),
        volumes: volumes.all(),
        apiKeys: auth.apiKeyHashes(),
        wallets: wallets.all()
      }),
      (error) => log(`could not write state to ${statePath}: ${(error as Error).message}`)
    )
  }

  if (options.reach) {
    const context: ReachContext = {
      clock,
      ...(options.statePath ? { stateDir: dirname(options.statePath) } : {}),
      verifyToken: (token) => auth.verify(token),
      instance: (instanceId) => {
        const record = instances.get(instanceId)
        return record ? viewOf(record, reach) : undefined
      },
      sshKeysFor: (username) => [...(sshKeys.get(username) ?? [])],
      gpus: (instanceId) => {
        const record = instances.get(instanceId)
        return record ? gpus.gpusOf(instanceId, record.instanceType) : []
      },
      takePort: (nodePort) => nodePorts.letGo(nodePort),
      givePortBack: (nodePort) => void nodePorts.hold(nodePort),
      log
    }
    try {
      reach = await options.reach(context)
    } catch (error) {
      scheduler.close()
      throw error
    }
  }
  // Restored after reach exists, so instances that were Running get their SSH back, and before
  // listening, so no client ever sees a half-restored cloud.
  if (saved) instances.restore(saved.instances)
  writer?.changed()

  /** Everything started so far, in order: a failed start and close() end the same things. */
  const closeAll = async (): Promise<void> => {
    scheduler.close()
    await writer?.close()
    await listener.close()
    await controlListener.close()
    await reach?.close()
    await nodePorts.close()
  }
  let port: number
  let controlPort: number
  const controlSecretPath = options.statePath ? join(dirname(options.statePath), CONTROL_SECRET_FILE) : undefined
  try {
    port = await listenOn(listener, options.port, '--port')
    controlPort = await listenOn(controlListener, options.controlPort, '--control-port')
    // Only the user running the emulator (and root) may read it: whoever has it can register SSH keys.
    if (controlSecretPath) await writeFileAtomic(controlSecretPath, `${controlSecret}\n`, 0o600)
  } catch (error) {
    await closeAll()
    throw error
  }

  const baseUrl = `http://127.0.0.1:${port}/api`
  let closed: Promise<void> | undefined
  return {
    baseUrl,
    controlUrl: `http://127.0.0.1:${controlPort}/__emulator`,
    controlSecret,
    ...(controlSecretPath ? { controlSecretPath } : {}),
    port,
    control,
    close() {
      closed ??= closeAll()
      return closed
    }
  }
}

async function listenOn(listener: Listener, port: number | undefined, flag: string): Promise<number> {
  try {
    return await listener.listen(port ?? 0)
  } catch (error) {
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      ? new Error(`port ${port} on 127.0.0.1 is already in use; pick another with ${flag}, or 0 for a free one`)
      : error
  }
}

/** The control routes, each answering only once what it changed is on disk. */
function durableControl<A extends unknown[], R>(
  routes: Map<string, (...args: A) => R | Promise<R>>,
  persisted: () => Promise<void>
): Map<string, (...args: A) => Promise<R>> {
  return new Map([...routes].map(([route, handler]) => [route, answerAfterPersisted(persisted, handler)]))
}

function viewOf(record: EmuInstance, reach: Reach | undefined): EmuInstanceView {
  return {
    instanceId: record.instanceId,
    owner: record.owner,
    instanceUsername: record.instanceUsername,
    subUrl: record.subUrl,
    nodePorts: record.nodePorts.map((entry) => ({ ...entry, address: reach ? reach.sshAddress : entry.address }))
  }
}

function nonNegative(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number`)
  return value
}
