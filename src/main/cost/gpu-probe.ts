/**
 * GPU activity of running instances: `nvidia-smi`'s CSV query over the instance's SSH connection,
 * once a minute per instance; the last hour kept for the window and, one number a probe, as far
 * back as the idle rule's longest setting for it (each a fixed-size ring). The command runs through a
 * GpuRunner: the app's shared SSH link (src/main/ssh/links/links.ts `exec`, which reuses the
 * instance's connection or keeps one exec-only connection, never logging in per probe, and
 * never asks the user anything). A probe that cannot run says why; it is a missed sample, which
 * the idle rule never counts as idle. Probing stops when the instance stops.
 *
 * What the instance answers is untrusted (#21: a compromised workload, a malicious image or
 * another user of the machine decides what its `nvidia-smi` prints): the answer is read from at
 * most GPU_OUTPUT_BYTES, lists at most MAX_GPUS GPUs, and every value is range-checked. Anything
 * else is "no reading" (a missed sample, never idle), said in the user's words.
 */
import type { Clock, TimerHandle } from '../../shared/clock'
import { GPU_HISTORY_POINTS, MAX_GPUS, type GpuActivity, type GpuPoint, type GpuReading, type GpuSample } from '../../shared/contract-cost'
import { busiestLoad } from '../../shared/cost-words'
import { MAX_IDLE_MINUTES } from '../../shared/guard-rules'
import { serverLine } from '../../shared/untrusted-text'
import { Ring } from '../util/ring'
import { PROBE_PERIOD_MS } from './idle'

/** The query (#16): utilisation and memory per GPU, one line each, bare numbers. */
export const GPU_QUERY = 'nvidia-smi --query-gpu=utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits'

/**
 * The most of the query's answer that is read. 64 GPUs of the widest honest line
 * ("100, 1048576, 1048576") fit in 1.5 KiB; the rest of a longer answer is not read at all.
 */
export const GPU_OUTPUT_BYTES = 16 * 1024
/** Above this much memory (4 TiB) a GPU's figure is not a reading. */
export const MAX_GPU_MEMORY_MIB = 4 * 1024 * 1024

/** Runs a command on an instance without a terminal and without ever asking the user. */
export interface GpuRunner {
  /**
   * Throws ProbeUnavailable when the command cannot be run at all (no connection, no trust).
   * `truncated`: the command printed more than GPU_OUTPUT_BYTES; what is past it was not read.
   */
  run(instanceId: string, command: string): Promise<{ stdout: string; stderr?: string; exitCode: number | null; truncated?: boolean }>
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

/** How long the window's history goes back. */
export const HISTORY_MS = 60 * 60_000
/** How long the idle rule's evidence goes back: its longest setting, and a little more. */
const EVIDENCE_MS = MAX_IDLE_MINUTES * 60_000 + 10 * 60_000
/** At a probe a minute, at most this many (a fixed-size ring; probes never come faster). */
const EVIDENCE_POINTS = MAX_IDLE_MINUTES + 16
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

/** A bare decimal: no sign, no exponent, no hex, a bounded number of digits. */
const NUMBER = /^\d{1,9}(\.\d{1,6})?$/

function reading(field: string | undefined, max: number): number | null {
  const text = field?.trim() ?? ''
  if (!NUMBER.test(text)) return null
  const value = Number(text)
  return value >= 0 && value <= max ? value : null
}

/** The query's answer read: one reading per GPU, or why it is no answer, in the user's words. */
export type GpuAnswer = { ok: true; gpus: GpuReading[] } | { ok: false; problem: string }

/**
 * `nvidia-smi`'s answer to GPU_QUERY → one reading per GPU. A value it cannot give (`[N/A]`,
 * `[Not Supported]`), and one that is no percentage or amount (negative, past 100 %, past 4 TiB,
 * more memory used than there is), is null: no reading, never idle. An answer with no GPU line, a
 * line that is not three values, more than MAX_GPUS lines or more than GPU_OUTPUT_BYTES is no
 * answer at all.
 */
export function parseGpuQuery(stdout: string): GpuAnswer {
  if (stdout.length > GPU_OUTPUT_BYTES) return { ok: false, problem: `it printed more than ${GPU_OUTPUT_BYTES / 1024} KiB` }
  const gpus: GpuReading[] = []
  for (const line of stdout.split(/\r?\n/)) {
    if (line.trim() === '') continue
    if (gpus.length === MAX_GPUS) return { ok: false, problem: `it listed more than ${MAX_GPUS} GPUs` }
    const fields = line.split(',')
    if (fields.length !== 3) return { ok: false, problem: 'a line is not the three values asked for' }
    const total = reading(fields[2], MAX_GPU_MEMORY_MIB)
    const used = reading(fields[1], MAX_GPU_MEMORY_MIB)
    gpus.push({
      utilization: reading(fields[0], 100),
      memoryUsedMiB: used !== null && total !== null && used > total ? null : used,
      memoryTotalMiB: total
    })
  }
  return gpus.length > 0 ? { ok: true, gpus } : { ok: false, problem: 'it listed no GPU' }
}

/** Why a probe's answer was not a reading, as the window and the tray say it. */
export function unusableReadings(problem: string): string {
  return `The instance sent readings we cannot use (${problem}).`
}

/** Whether an instance can be probed, or why not (no SSH port, not running yet…). */
export type ProbeTarget = { probe: true } | { probe: false; reason: string }

interface Tracked {
  /** The newest probe, in full. */
  latest?: GpuSample
  /** The last hour's probes as the window's chart draws them (made once, at each probe). */
  points: Ring<GpuPoint>
  /**
   * The idle rule's evidence, as far back as its longest setting (MAX_IDLE_MINUTES): each probe as
   * one reading, the busiest GPU's load when every GPU gave one (what "every GPU below X %" needs).
   */
  evidence: Ring<GpuSample>
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
  /**
   * Handling an instance's answer threw (a bug, or an answer no check foresaw): that instance's
   * activity is unavailable and this is told; the other instances' probes go on.
   */
  fault?(instanceId: string, error: unknown): void
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
    if (reason !== undefined) return { state: 'unavailable', reason, history: [] }
    const tracked = this.tracked.get(instanceId)
    if (!tracked) return { state: 'off' }
    const latest = tracked.latest
    const summary = { ...(latest ? { latest } : {}), history: tracked.points.toArray() }
    return tracked.unavailable !== undefined
      ? { state: 'unavailable', reason: tracked.unavailable, ...summary }
      : { state: 'probing', ...summary }
  }

  /**
   * The idle rule's evidence, oldest first: the probes of the last MAX_IDLE_MINUTES, each as one
   * reading (compact: see Tracked.evidence), so an idle rule of hours can act (idle.ts).
   */
  samples(instanceId: string): readonly GpuSample[] {
    return this.tracked.get(instanceId)?.evidence.toArray() ?? []
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
    const tracked: Tracked = { points: new Ring(GPU_HISTORY_POINTS), evidence: new Ring(EVIDENCE_POINTS), generation: ++this.generations }
    this.tracked.set(instanceId, tracked)
    this.schedule(instanceId, tracked, FIRST_PROBE_DELAY_MS)
  }

  private untrack(instanceId: string, tracked: Tracked): void {
    this.options.clock.clearTimeout(tracked.timer)
    tracked.generation = -1
    this.tracked.delete(instanceId)
  }

  private schedule(instanceId: string, tracked: Tracked, delayMs: number): void {
    // One timer per instance, whatever path scheduled it (a fault may come after the next was set).
    this.options.clock.clearTimeout(tracked.timer)
    tracked.timer = this.options.clock.setTimeout(
      () => void this.probe(instanceId, tracked).catch((error: unknown) => this.faulted(instanceId, tracked, error)),
      delayMs
    )
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
      // Cut off at the limit, the command never got to say how it ended: that is no answer either way.
      const answer: GpuAnswer | undefined = result.truncated
        ? { ok: false, problem: `it printed more than ${GPU_OUTPUT_BYTES / 1024} KiB` }
        : result.exitCode !== 0
          ? undefined
          : parseGpuQuery(result.stdout)
      if (answer?.ok) sample = { at: clock.now(), gpus: answer.gpus }
      else {
        const notInstalled = result.exitCode === 127
        unavailable = notInstalled
          ? 'nvidia-smi is not installed on this instance, so its GPUs cannot be read.'
          : answer
            ? unusableReadings(answer.problem)
            : `nvidia-smi did not answer (${serverLine(result.stderr || result.stdout) || `exit status ${result.exitCode ?? 'unknown'}`}).`
        if (notInstalled) nextDelay = NEEDS_USER_RETRY_MS
        sample = { at: clock.now(), gpus: [], missed: unavailable }
      }
    } catch (error) {
      const needsUser = error instanceof ProbeUnavailable && error.needsUser
      unavailable = serverLine(error instanceof Error ? error.message : String(error), 500)
      if (needsUser) nextDelay = NEEDS_USER_RETRY_MS
      sample = { at: clock.now(), gpus: [], missed: unavailable }
    }
    if (tracked.generation !== generation || this.disposed) return
    this.record(tracked, sample, unavailable)
    // Once a minute from the start of each probe, so a slow answer does not stretch the period;
    // at once if it failed while the instance's connection came up meanwhile.
    if (unavailable !== undefined && tracked.readyAgain) nextDelay = 0
    this.schedule(instanceId, tracked, Math.max(0, startedAt + nextDelay - clock.now()))
    this.options.onChange(instanceId)
  }

  private record(tracked: Tracked, sample: GpuSample, unavailable: string | undefined): void {
    tracked.latest = sample
    tracked.points.push(pointOf(sample))
    tracked.evidence.push(evidenceOf(sample))
    const now = this.options.clock.now()
    tracked.points.dropWhile((old) => old.at < now - HISTORY_MS)
    tracked.evidence.dropWhile((old) => old.at < now - EVIDENCE_MS)
    if (unavailable === undefined) delete tracked.unavailable
    else tracked.unavailable = unavailable
  }

  /**
   * A probe's handling threw: the instance's activity is unavailable (a missed sample, never
   * idle), the next probe comes as usual, and the fault is told. The other instances never notice.
   */
  private faulted(instanceId: string, tracked: Tracked, error: unknown): void {
    if (tracked.generation === -1 || this.disposed) return
    const reason = unusableReadings('they could not be read')
    this.record(tracked, { at: this.options.clock.now(), gpus: [], missed: reason }, reason)
    this.schedule(instanceId, tracked, this.options.periodMs ?? PROBE_PERIOD_MS)
    this.options.fault?.(instanceId, error)
    this.options.onChange(instanceId)
  }
}

/** A sample as the idle rule needs it: one reading, the busiest load when every GPU gave one. */
function evidenceOf(sample: GpuSample): GpuSample {
  if (sample.missed !== undefined || sample.gpus.length === 0) return sample
  const allRead = sample.gpus.every((gpu) => gpu.utilization !== null)
  return { at: sample.at, gpus: [{ utilization: allRead ? busiestLoad(sample.gpus) : null, memoryUsedMiB: null, memoryTotalMiB: null }] }
}

/** A sample as the chart draws it. */
function pointOf(sample: GpuSample): GpuPoint {
  return sample.missed !== undefined ? { at: sample.at, busiest: null, missed: true } : { at: sample.at, busiest: busiestLoad(sample.gpus) }
}
