/**
 * GPU activity of running instances: `nvidia-smi`'s CSV query over the instance's SSH connection,
 * once a minute per instance, the last hour kept in memory. The command runs through a
 * GpuRunner: the app's shared SSH link (src/main/ssh/links/links.ts `exec`, which reuses the
 * instance's connection or keeps one exec-only connection, never logging in per probe, and
 * never asks the user anything). A probe that cannot run says why; it is a missed sample, which
 * the idle rule never counts as idle. Probing stops when the instance stops.
 */
import type { Clock, TimerHandle } from '../../shared/clock'
import type { GpuActivity, GpuReading, GpuSample } from '../../shared/contract-cost'
import { PROBE_PERIOD_MS } from './idle'

/** The query (#16): utilisation and memory per GPU, one line each, bare numbers. */
export const GPU_QUERY = 'nvidia-smi --query-gpu=utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits'

/** Runs a command on an instance without a terminal and without ever asking the user. */
export interface GpuRunner {
  /** Throws ProbeUnavailable when the command cannot be run at all (no connection, no trust). */
  run(instanceId: string, command: string): Promise<{ stdout: string; stderr?: string; exitCode: number | null }>
  /**
   * Hears when an instance can be reached again (its SSH connection came up: the user trusted its
   * host key, typed a passphrase, or the network is back). Answers the call that stops listening.
   */
  onReady?(listener: (instanceId: string) => void): () => void
}

/** The probe could not run: why, in the user's words, and whether only the user can fix it. */
export class ProbeUnavailable extends Error {
  constructor(
    message: string,
    /** A host key to trust, a passphrase to type, a key the instance does not accept: retried rarely. */
    readonly needsUser: boolean
  ) {
    super(message)
    this.name = 'ProbeUnavailable'
  }
}

/** How long the history goes back. */
export const HISTORY_MS = 60 * 60_000
/** The first probe of a newly running instance waits this long (its SSH server may still be starting). */
export const FIRST_PROBE_DELAY_MS = 2_000
/**
 * Probes share the user's machine and network with their work: at most this many run at once,
 * however many instances run. Each instance's next probe is scheduled from its own answer, so a
 * long queue (hundreds of instances, or addresses that never answer) stretches the periods
 * rather than piling up connections.
 */
export const MAX_PROBES_AT_ONCE = 4
/** After a failure only the user can fix (or no nvidia-smi), the next try. */
export const NEEDS_USER_RETRY_MS = 10 * 60_000

const NUMBER = /^-?\d+(\.\d+)?$/

function reading(field: string | undefined): number | null {
  const text = field?.trim() ?? ''
  return NUMBER.test(text) ? Number(text) : null
}

/**
 * `nvidia-smi`'s answer to GPU_QUERY → one reading per GPU. Values it cannot give (`[N/A]`,
 * `[Not Supported]`) are null. Output with no GPU line at all is not an answer.
 */
export function parseGpuQuery(stdout: string): GpuReading[] | undefined {
  const gpus: GpuReading[] = []
  for (const line of stdout.split(/\r?\n/)) {
    if (line.trim() === '') continue
    const fields = line.split(',')
    if (fields.length !== 3) return undefined
    const utilization = reading(fields[0])
    gpus.push({
      utilization: utilization === null ? null : Math.min(100, Math.max(0, utilization)),
      memoryUsedMiB: reading(fields[1]),
      memoryTotalMiB: reading(fields[2])
    })
  }
  return gpus.length > 0 ? gpus : undefined
}

/** Whether an instance can be probed, or why not (no SSH port, not running yet…). */
export type ProbeTarget = { probe: true } | { probe: false; reason: string }

interface Tracked {
  samples: GpuSample[]
  /** Set while the latest attempt failed. */
  unavailable?: string
  timer?: TimerHandle
  /** Bumped when tracking ends, so a probe in flight is ignored when it lands. */
  generation: number
  /** A probe is queued or running (its timer has fired). */
  inFlight?: boolean
  /** The instance became reachable while a probe was in flight: if that one fails, try again at once. */
  readyAgain?: boolean
}

export interface GpuProbesOptions {
  clock: Clock
  runner: GpuRunner
  /** Something new about this instance's GPUs (a sample, a failure). */
  onChange(instanceId: string): void
  periodMs?: number
  log?: (line: string) => void
}

export class GpuProbes {
  private readonly tracked = new Map<string, Tracked>()
  private readonly blocked = new Map<string, string>()
  private generations = 0
  private disposed = false
  private running = 0
  /** Probes waiting for one of the MAX_PROBES_AT_ONCE slots, first come first served. */
  private readonly queue: (() => void)[] = []

  private readonly stopListening: (() => void) | undefined

  constructor(private readonly options: GpuProbesOptions) {
    this.stopListening = options.runner.onReady?.((instanceId) => this.ready(instanceId))
  }

  /**
   * The instances running now, each probed or with the reason it cannot be. Instances not named
   * stop being probed and their history is dropped.
   */
  update(targets: ReadonlyMap<string, ProbeTarget>): void {
    if (this.disposed) return
    for (const [instanceId, tracked] of this.tracked) {
      const target = targets.get(instanceId)
      if (!target?.probe) this.untrack(instanceId, tracked)
    }
    this.blocked.clear()
    for (const [instanceId, target] of targets) {
      if (!target.probe) this.blocked.set(instanceId, target.reason)
      else if (!this.tracked.has(instanceId)) this.track(instanceId)
    }
  }

  activity(instanceId: string): GpuActivity {
    const reason = this.blocked.get(instanceId)
    if (reason !== undefined) return { state: 'unavailable', reason, samples: [] }
    const tracked = this.tracked.get(instanceId)
    if (!tracked) return { state: 'off' }
    const samples = [...tracked.samples]
    return tracked.unavailable !== undefined
      ? { state: 'unavailable', reason: tracked.unavailable, samples }
      : { state: 'probing', samples }
  }

  samples(instanceId: string): readonly GpuSample[] {
    return this.tracked.get(instanceId)?.samples ?? []
  }

  /** Instances being probed now. */
  probing(): string[] {
    return [...this.tracked.keys()]
  }

  /**
   * The instance's SSH connection just came up. A probe that failed for want of one (a host key
   * not trusted yet waits NEEDS_USER_RETRY_MS) runs now, so the load and the idle rule do not wait
   * up to ten minutes after the user trusted the key. A probe that is working keeps its period.
   */
  ready(instanceId: string): void {
    const tracked = this.tracked.get(instanceId)
    if (!tracked || this.disposed) return
    if (tracked.inFlight) tracked.readyAgain = true
    else if (tracked.unavailable !== undefined) {
      this.options.clock.clearTimeout(tracked.timer)
      this.schedule(instanceId, tracked, 0)
    }
  }

  dispose(): void {
    this.disposed = true
    this.stopListening?.()
    this.queue.length = 0
    for (const [instanceId, tracked] of this.tracked) this.untrack(instanceId, tracked)
  }

  private track(instanceId: string): void {
    const tracked: Tracked = { samples: [], generation: ++this.generations }
    this.tracked.set(instanceId, tracked)
    this.schedule(instanceId, tracked, FIRST_PROBE_DELAY_MS)
  }

  private untrack(instanceId: string, tracked: Tracked): void {
    this.options.clock.clearTimeout(tracked.timer)
    tracked.generation = -1
    this.tracked.delete(instanceId)
  }

  private schedule(instanceId: string, tracked: Tracked, delayMs: number): void {
    tracked.timer = this.options.clock.setTimeout(() => void this.probe(instanceId, tracked), delayMs)
  }

  private async probe(instanceId: string, tracked: Tracked): Promise<void> {
    const generation = tracked.generation
    tracked.inFlight = true
    tracked.readyAgain = false
    if (this.running >= MAX_PROBES_AT_ONCE) await new Promise<void>((resolve) => this.queue.push(resolve))
    // A slot is ours until the runner answers (handed on in `finally`, never dropped).
    this.running++
    try {
      // Untracked (or all disposed) while it waited: nothing to ask.
      if (tracked.generation === generation && !this.disposed) await this.probeNow(instanceId, tracked, generation)
    } finally {
      tracked.inFlight = false
      this.running--
      this.queue.shift()?.()
    }
  }

  private async probeNow(instanceId: string, tracked: Tracked, generation: number): Promise<void> {
    const { clock } = this.options
    const startedAt = clock.now()
    let sample: GpuSample
    let unavailable: string | undefined
    let nextDelay = this.options.periodMs ?? PROBE_PERIOD_MS
    try {
      const result = await this.options.runner.run(instanceId, GPU_QUERY)
      const gpus = result.exitCode === 0 ? parseGpuQuery(result.stdout) : undefined
      if (gpus) sample = { at: clock.now(), gpus }
      else {
        const notInstalled = result.exitCode === 127
        unavailable = notInstalled
          ? 'nvidia-smi is not installed on this instance, so its GPUs cannot be read.'
          : `nvidia-smi did not answer (${firstLine(result.stderr || result.stdout) || `exit status ${result.exitCode ?? 'unknown'}`}).`
        if (notInstalled) nextDelay = NEEDS_USER_RETRY_MS
        sample = { at: clock.now(), gpus: [], missed: unavailable }
      }
    } catch (error) {
      const needsUser = error instanceof ProbeUnavailable && error.needsUser
      unavailable = error instanceof Error ? error.message : String(error)
      if (needsUser) nextDelay = NEEDS_USER_RETRY_MS
      sample = { at: clock.now(), gpus: [], missed: unavailable }
    }
    if (tracked.generation !== generation || this.disposed) return
    tracked.samples.push(sample)
    const oldest = clock.now() - HISTORY_MS
    while (tracked.samples.length > 0 && tracked.samples[0]!.at < oldest) tracked.samples.shift()
    if (unavailable === undefined) delete tracked.unavailable
    else tracked.unavailable = unavailable
    // Once a minute from the start of each probe, so a slow answer does not stretch the period;
    // at once if it failed while the instance's connection came up meanwhile.
    if (unavailable !== undefined && tracked.readyAgain) nextDelay = 0
    this.schedule(instanceId, tracked, Math.max(0, startedAt + nextDelay - clock.now()))
    this.options.onChange(instanceId)
  }
}

function firstLine(text: string | undefined): string {
  return (text ?? '').trim().split(/\r?\n/)[0]?.slice(0, 200) ?? ''
}
