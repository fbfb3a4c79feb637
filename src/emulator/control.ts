/**
 * What tests (and `/__emulator/` over HTTP) can do to the emulated cloud that a real user cannot:
 * force statuses, preempt, jump time, inject faults, expire tokens, seed many instances.
 */
import type { Instance, Volume } from '../shared/api'
import { notFoundInstance } from './api-error'
import type { Auth } from './auth'
import { type BalanceAnswer, type Meter, type WalletState, type Wallets } from './billing'
import type { Catalog } from './catalog'
import { FieldError } from './fields'
import { memoryOfType, readGpuSetting, type EmuGpu, type GpuBoard, type GpuSetting } from './gpus'
import type { AnswerRewrite, Faults } from './faults'
import { toApiInstance, type ReachAddresses } from './instance-record'
import type { InstanceStore, SeedOverrides, StatusExtra } from './instances'
import type { Listener } from './listener'
import type { SftpFault, TmuxClient } from './reach-types'
import type { RequestCounter } from './request-counter'
import type { Scheduler } from './scheduler'
import { toApiVolume, type VolumeStore } from './volumes'

export interface FaultControl {
  /** Adds this many real milliseconds before every /api answer (a slow network). */
  setLatency(ms: number): void
  /** The next `count` /api requests answer `status` (default 503) with a JSON message. */
  failNext(count: number, status?: number): void
  /** The next `count` /api requests get their socket destroyed without an answer. */
  dropNext(count: number): void
  /** The next `count` /api requests (to `route` only, when given) are carried out, then their socket is destroyed: the answer is lost. */
  loseNextAnswers(count: number, route?: string): void
  /**
   * In-process only: every success answer of an /api route (e.g. `/instance/list`) becomes what
   * `rewrite` returns, to play a hostile or broken service; `null` stops. Reset clears it.
   */
  rewriteAnswers(route: string, rewrite: AnswerRewrite | null): void
  /** The next `count` /api requests answer a redirect (301/302/307/308) to `location`, not carried out. */
  redirectNext(count: number, status: number, location: string): void
  /** true: close the listener (connections refused); false: listen again on the same port. */
  setDown(down: boolean): Promise<void>
  /** No latency, no pending failures or drops, listener up. */
  reset(): Promise<void>
  /**
   * The instance's next SFTP sessions fail as on a full disk (`disk-full`) or a folder the user
   * may not write (`read-only`); `none` ends the fault. Needs the built-in SSH servers.
   */
  sftp(instanceId: string, fault: SftpFault): void
  /** `missing`: the instance's shells answer "tmux: not found" (exit 127); `present` ends it. Needs the built-in SSH servers. */
  tmux(instanceId: string, tmux: 'present' | 'missing'): Promise<void>
  /** Drops every SSH client's TCP connection to the instance now (no SSH goodbye), as a network that goes away would. */
  dropSsh(instanceId: string): void
  /**
   * `true`: the instance's terminals (PTY sessions) opened from now on start with their output
   * held up, as for a client that stopped reading; `false` ends the fault and lets them all go.
   * Needs the built-in SSH servers.
   */
  stallTerminals(instanceId: string, stalled: boolean): Promise<void>
}

export interface EmulatorControl {
  setStatus(instanceId: string, status: string, extra?: StatusExtra): void
  preempt(instanceId: string): void
  /**
   * Puts a type in or out of stock in one region from now on: the catalog feed says so and
   * create follows (refused out of stock). Kept for this run only, like the catalog itself.
   */
  setStock(instanceTypeId: string, regionId: string, inStock: boolean): void
  /** Moves emulator time forward by `ms` and runs every lifecycle / volume timer that falls due. */
  advance(ms: number): void
  /** Emulator time (Unix ms): the clock plus everything advanced. */
  now(): number
  faults: FaultControl
  /** Every token issued so far (for that user) is refused as expired from now on. */
  expireTokens(username?: string): void
  /** Ends a login lockout early. */
  unlock(username: string): void
  /** Makes a console API key for the user (sent as `X-API-Key`); returns it. */
  createApiKey(username: string): string
  /** Every API key (of that user) is refused from now on; returns how many. */
  revokeApiKeys(username?: string): number
  /** Sets the user's wallet (dollars); what is not given stays. */
  setBalance(username: string, values: Partial<WalletState>): void
  /** What GET /balance answers the user now, and what each of their instances has cost so far. */
  balance(username: string): BalanceAnswer & { charged: Record<string, number> }
  catalog(): Catalog
  /** Instances in the API's full shape, newest first; everyone's unless a user is named. */
  instances(username?: string): Instance[]
  volumes(username?: string): Volume[]
  /**
   * Creates `count` (at most MAX_SEED) instances at once, Running unless `overrides.status` says
   * otherwise; returns their ids. Only the first REACHABLE_PER_SEED get SSH and port listeners,
   * and the answer waits until those listen: a seeded instance stands for one that has been
   * running a while, not one whose SSH server is still coming up (an instance that boots through
   * /instance/create is listed Running a moment before its listeners bind, as a real one may be).
   */
  seedInstances(username: string, count: number, overrides?: SeedOverrides): Promise<string[]>
  registerSshKey(username: string, publicKeyLine: string): void
  /**
   * What the instance's `nvidia-smi` reports from now on: every GPU at these values, or one entry
   * per GPU in `gpus`. Resolves once the instance's shell sees it. Idle (0 %) until set; a stop resets it.
   */
  setGpu(instanceId: string, setting: GpuInput): Promise<void>
  /** The instance's GPUs as its nvidia-smi reports them. */
  gpus(instanceId: string): EmuGpu[]
  /** Per instance: SSH logins and commands (exec) its built-in server served; empty without reach. */
  sshStats(): Record<string, { connections: number; execs: number }>
  /** /api requests received (faulted ones included) since start or the last reset; with `route` (`/instance/list`), those to it. */
  requestCount(route?: string): number
  resetRequestCount(): void
  /**
   * Ends every instance's tmux servers, as if each machine stopped. With a state file they outlive
   * the emulator (they run on while the app is closed); tests that used them call this at the end.
   */
  endSessions(): Promise<void>
  /** The tmux clients attached on the instance's tmux servers now (its terminals' sessions); `held`: its terminal is held up (faults.stallTerminals). */
  tmuxClients(instanceId: string): Promise<TmuxClient[]>
}

/** `POST /__emulator/gpu`'s body without the instance id. */
export type GpuInput =
  | { utilization: number; memoryUsedMiB?: number; memoryTotalMiB?: number; gpus?: never }
  | {
      gpus: (Omit<GpuSetting, 'memoryUsedMiB' | 'memoryTotalMiB'> & Partial<GpuSetting>)[]
    }

export interface ControlDeps {
  auth: Auth
  instances: InstanceStore
  volumes: VolumeStore
  scheduler: Scheduler
  faults: Faults
  listener: Listener
  catalog: Catalog
  reach: () => ReachAddresses | undefined
  /** The reach's SFTP fault switch; throws an ApiError when the reach has none. */
  setSftpFault: (instanceId: string, fault: SftpFault) => void
  /** The reach's tmux switch; throws an ApiError when the reach has none. */
  setTmuxPresent: (instanceId: string, present: boolean) => Promise<void>
  /** Ends every instance's tmux servers (reach.endSessions). */
  endSessions: () => Promise<void>
  /** reach.dropSshConnections. */
  dropSsh: (instanceId: string) => void
  /** reach.setTerminalStall. */
  setTerminalStall: (instanceId: string, stalled: boolean) => Promise<void>
  /** reach.tmuxClients. */
  tmuxClients: (instanceId: string) => Promise<TmuxClient[]>
  sshKeys: Map<string, string[]>
  counter: RequestCounter
  gpus: GpuBoard
  /** Tells the instance's shell (reach) that its GPUs changed. */
  gpusChanged(instanceId: string): Promise<void>
  sshStats(): Record<string, { connections: number; execs: number }>
  /** Resolves once the reach has finished starting these instances (listeners bound, or failed and logged). */
  reachable(instanceIds: readonly string[]): Promise<void>
  wallets: Wallets
  meter: Meter
  /** Something the state file keeps changed (keys, wallets). */
  changed: () => void
}

/**
 * The most instances one seed makes: above every list, benchmark and load test here (the largest,
 * src/main/watch/watcher.load.test.ts, seeds 2000), and small enough that one control request
 * cannot tie the emulator up.
 */
export const MAX_SEED = 2_000

export function createControl(deps: ControlDeps): EmulatorControl {
  const { auth, instances, scheduler, faults, listener } = deps
  return {
    setStatus(instanceId, status, extra) {
      if (typeof status !== 'string' || status === '') throw new TypeError('setStatus needs a status name')
      instances.setStatus(instanceId, status, extra)
    },
    preempt(instanceId) {
      instances.preempt(instanceId)
    },
    setStock(instanceTypeId, regionId, inStock) {
      const type = deps.catalog.instanceTypes.find((entry) => entry.instanceTypeId === instanceTypeId)
      if (!type) throw new FieldError('instanceTypeId', `field "instanceTypeId" names no instance type: ${instanceTypeId}`)
      if (!deps.catalog.regions.some((region) => region.regionId === regionId))
        throw new FieldError('region', `field "region" names no region: ${regionId}`)
      const others = type.outOfStockIn.filter((id) => id !== regionId)
      type.outOfStockIn = inStock ? others : [...others, regionId]
    },
    advance(ms) {
      scheduler.advance(ms)
    },
    now: () => scheduler.now(),
    faults: {
      setLatency: (ms) => faults.setLatency(ms),
      failNext: (count, status) => faults.failNext(count, status),
      dropNext: (count) => faults.dropNext(count),
      loseNextAnswers: (count, route) => faults.loseNextAnswers(count, route),
      redirectNext: (count, status, location) => faults.redirectNext(count, status, location),
      rewriteAnswers: (route, rewrite) => faults.rewriteAnswers(route, rewrite),
      setDown: (down) => (down ? listener.down() : listener.up()),
      async reset() {
        faults.reset()
        await listener.up()
      },
      sftp(instanceId, fault) {
        if (!instances.get(instanceId)) throw notFoundInstance()
        deps.setSftpFault(instanceId, fault)
      },
      async tmux(instanceId, tmux) {
        if (!instances.get(instanceId)) throw notFoundInstance()
        await deps.setTmuxPresent(instanceId, tmux === 'present')
      },
      dropSsh(instanceId) {
        if (!instances.get(instanceId)) throw notFoundInstance()
        deps.dropSsh(instanceId)
      },
      async stallTerminals(instanceId, stalled) {
        if (!instances.get(instanceId)) throw notFoundInstance()
        await deps.setTerminalStall(instanceId, stalled)
      }
    },
    endSessions: () => deps.endSessions(),
    tmuxClients(instanceId) {
      if (!instances.get(instanceId)) throw notFoundInstance()
      return deps.tmuxClients(instanceId)
    },
    expireTokens(username) {
      auth.expireTokens(username)
    },
    unlock(username) {
      auth.unlock(username)
    },
    createApiKey(username) {
      const key = auth.createApiKey(username)
      deps.changed()
      return key
    },
    revokeApiKeys(username) {
      const count = auth.revokeApiKeys(username)
      deps.changed()
      return count
    },
    setBalance(username, values) {
      if (!auth.hasUser(username)) throw new RangeError(`no user "${username}" exists`)
      deps.wallets.set(username, values)
      deps.changed()
    },
    balance(username) {
      scheduler.runDue()
      const now = scheduler.now()
      const charged: Record<string, number> = {}
      for (const record of instances.all(username)) {
        deps.meter.charge(record, now)
        charged[record.instanceId] = record.charged ?? 0
      }
      return { ...deps.wallets.answer(username), charged }
    },
    catalog: () => structuredClone(deps.catalog),
    instances(username) {
      scheduler.runDue()
      const reach = deps.reach()
      return instances.all(username).map((record) => toApiInstance(record, reach))
    },
    volumes(username) {
      scheduler.runDue()
      return deps.volumes.all(username).map(toApiVolume)
    },
    async seedInstances(username, count, overrides = {}) {
      if (!Number.isInteger(count) || count < 0 || count > MAX_SEED)
        throw new RangeError(`seedInstances count must be a whole number 0–${MAX_SEED}`)
      const created = await instances.seed(username, count, overrides, deps.catalog)
      const ids = created.map((record) => record.instanceId)
      await deps.reachable(ids)
      return ids
    },
    registerSshKey(username, publicKeyLine) {
      const line = publicKeyLine.trim()
      if (!/^(ssh-|ecdsa-|sk-)\S+ \S+/.test(line)) throw new TypeError('registerSshKey needs an OpenSSH public key line')
      const keys = deps.sshKeys.get(username) ?? []
      if (!keys.includes(line)) keys.push(line)
      deps.sshKeys.set(username, keys)
    },
    async setGpu(instanceId, setting) {
      const record = instances.get(instanceId)
      if (!record) throw new FieldError('instanceId', `field "instanceId" names no instance: ${instanceId}`)
      const type = record.instanceType
      const count = deps.gpus.gpusOf(instanceId, type).length
      deps.gpus.set(instanceId, readGpuSetting({ ...setting }, count, memoryOfType(type.gpu.type)))
      await deps.gpusChanged(instanceId)
    },
    gpus(instanceId) {
      const record = instances.get(instanceId)
      return record ? deps.gpus.gpusOf(instanceId, record.instanceType) : []
    },
    sshStats: () => deps.sshStats(),
    requestCount: (route) => deps.counter.of(route),
    resetRequestCount: () => deps.counter.reset()
  }
}
