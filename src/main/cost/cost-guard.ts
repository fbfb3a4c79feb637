/**
 * The cost guard: keeps the meter, the GPU probes and the rules of every billed instance of the
 * signed-in account, and acts. It looks again whenever the hub says the instance list, the
 * balance or the session changed, when a GPU sample arrives and when the rules engine (rules.ts)
 * asks for a time, and tells what it sees as the `cost` event; what the engine decides it does:
 * notifications through the notifier, stops through the same command as the Stop button (which
 * records them as this app's own, so they are not news), never a terminate.
 *
 * - Rules are per account (`profileId/username`) and instance, in the data folder (guard-store.ts).
 *   An instance met for the first time starts with the defaults from Settings; one that is stopped,
 *   released or gone has its rules cleared.
 * - A countdown found in the file after a restart starts again when its instance is next seen.
 * - The run's start is when the app saw the instance begin billing, else its createAtUnixMs.
 * - Each instance's rules, and its GPU readings, are a part of their own (supervisor.ts): one
 *   instance's failure is shown for it and never stops the others' rules (#21).
 */
import type { Instance } from '../../shared/api'
import type { Clock, TimerHandle } from '../../shared/clock'
import type { AppNotification, InstancesSnapshot, NotificationKind, Result, Settings } from '../../shared/contract'
import type { CostSnapshot, GuardInstance, GuardRules, QuitOffer } from '../../shared/contract-cost'
import { lowest } from '../../shared/extremes'
import { ruleWords } from '../../shared/guard-rules'
import { canStop, isBilled, isRunning, sshEndpoint } from '../../shared/instance-rules'
import { uniqueBy } from '../../shared/unique-by'
import { cutText, visibleText } from '../../shared/untrusted-text'
import { AppError } from '../app-error'
import type { EventFeed, EventSink } from '../core-types'
import { Supervisor, type Part } from '../supervisor'
import { GpuProbes, type GpuRunner, type ProbeTarget } from './gpu-probe'
import type { GuardStore } from './guard-store'
import { idleEvidence } from './idle'
import { burnRate, createdRunStart, meterOf, planTerm, runway, type RunStart } from './meter'
import {
  cancelledNotice,
  countdownNotice,
  planEndingNotice,
  reminderNotice,
  stopFailedNotice,
  stoppedNotice,
  type NoticeSubject
} from './notices'
import {
  evaluate,
  initialState,
  jobDoneCountdown,
  keepRunning,
  resumeCountdown,
  stopFailed,
  withRules,
  type RuleEffect,
  type RuleState
} from './rules'

export interface CostGuardOptions {
  clock: Clock
  settings: { get(): Settings }
  store: GuardStore
  /** The account whose instances are watched ("profileId/username"); undefined while signed out. */
  scope(): string | undefined
  /** The watcher's snapshot. */
  instances: { snapshot(): InstancesSnapshot }
  /** Runs nvidia-smi on an instance over its SSH link; undefined: this build cannot. */
  runner: GpuRunner | undefined
  /** The Stop button's command (`instances.stop`), answered as a Result. */
  stop(instanceId: string): Promise<Result<{ instanceId: string }>>
  notify: { deliver(notification: AppNotification): void; id(kind: NotificationKind, instanceId?: string): string }
  /** Dollars that can be spent now, when the account reports a balance. */
  balance?: () => number | undefined
  /** The hub: `cost` goes out on it (the windows and the tray follow). */
  emit: EventSink
  /** The hub: the guard looks again on `instances`, `balance` (the runway) and `session`. */
  events: EventFeed
  /** Where each instance's parts report a failure (core.ts's); absent: one of the guard's own, which logs. */
  supervisor?: Pick<Supervisor, 'part' | 'forget'>
  log?: { warn(message: string, data?: unknown): void; error?(message: string, data?: unknown): void }
}

/** Why the GPUs of a running instance cannot be read, when it is not the probe's to say. */
const NO_SSH_PORT = 'It has no SSH port, so Cloud Tray cannot read its GPUs.'
/**
 * GPU readings land one instance at a time; each look goes over every billed instance and
 * republishes the whole picture (window and tray). Readings that land within this long share one
 * look, so a hundred instances cost a look a second rather than a hundred (the idle rule counts
 * in minutes: a second's delay changes nothing).
 */
export const READINGS_LOOK_DELAY_MS = 1_000
const NO_RUNNER = 'This version of Cloud Tray cannot run commands on instances, so it cannot read their GPUs.'

export class CostGuard {
  private readonly probes: GpuProbes | undefined
  /** Per instance of the current account: whether it was billed when last seen. */
  private billedWhenSeen = new Map<string, boolean>()
  private seenScope: string | undefined
  /** Countdowns read from the file, started again when their instance is next seen (scope/id). */
  private readonly toResume = new Set<string>()
  private wakeTimer: TimerHandle | undefined
  private readingsTimer: TimerHandle | undefined
  private disposed = false
  private readonly supervisor: Pick<Supervisor, 'part' | 'forget'>
  /** Stops whose answer was lost: their failure is told only if the retry fails too. */
  private readonly unsure = new Set<string>()
  /** Instance names as last listed, for what the parts say. */
  private readonly names = new Map<string, string>()

  constructor(private readonly options: CostGuardOptions) {
    const { log } = options
    this.supervisor =
      options.supervisor ??
      new Supervisor({ now: () => options.clock.now(), ...(log?.error ? { log: { error: (m, d) => log.error?.(m, d) } } : {}) })
    this.probes = options.runner
      ? new GpuProbes({
          clock: options.clock,
          runner: options.runner,
          onChange: () => this.lookAfterReadings(),
          fault: (instanceId, error) => this.gpuPart(instanceId).fail(error),
          ...(options.log ? { log: (line: string) => options.log?.warn(line) } : {})
        })
      : undefined
    for (const event of ['instances', 'balance', 'session'] as const) options.events.on(event, () => this.look())
  }

  /** Reads the saved rules; a sentence for the user when the file had to be set aside. */
  load(): Promise<{ warning?: string }> {
    return this.options.store.load()
  }

  /**
   * An account's saved countdowns (and stops asked for just before the app ended) start again
   * when their instance is next seen: nothing is stopped at once after a restart or a sign-in.
   */
  private markCountdowns(scope: string): void {
    for (const [instanceId, state] of this.options.store.entries(scope)) {
      if (state.countdown || state.stopAskedAt !== undefined) this.toResume.add(`${scope}\n${instanceId}`)
    }
  }

  setRules(instanceId: string, rules: GuardRules): CostSnapshot {
    const { scope, instance, state } = this.require(instanceId)
    const step = withRules(state, rules, this.runStart(instance, state).at, this.options.clock.now())
    this.options.store.set(scope, instanceId, step.state)
    this.look()
    return this.snapshot()
  }

  keepRunning(instanceId: string): CostSnapshot {
    const { scope, state } = this.require(instanceId)
    this.options.store.set(scope, instanceId, keepRunning(state, this.options.clock.now()))
    this.look()
    return this.snapshot()
  }

  /**
   * A job ended and its user asked at the start for the instance to stop then: the countdown
   * notice (with Keep running), then the stop, as for a rule. Answers the countdown's minutes, or
   * undefined when no countdown started (signed out, not stoppable, one already under way).
   */
  stopAfterJob(instanceId: string, reason: string): number | undefined {
    const scope = this.options.scope()
    const instance = this.billed().find((each) => each.instanceMetadata.instanceId === instanceId)
    if (!scope || !instance || !canStop(instance)) return undefined
    const now = this.options.clock.now()
    const minutes = this.options.settings.get().costGuard.countdownMinutes
    const current = this.options.store.get(scope, instanceId) ?? initialState(this.options.settings.get().costGuard.defaults, now)
    const step = jobDoneCountdown(current, reason, now, minutes * 60_000)
    if (!step.started) return current.countdown ? Math.max(1, Math.round((current.countdown.endsAt - now) / 60_000)) : undefined
    this.options.store.set(scope, instanceId, step.state)
    this.act(scope, instance, step.state, { kind: 'countdown', countdown: step.started }, false)
    this.look()
    return minutes
  }

  snapshot(): CostSnapshot {
    const now = this.options.clock.now()
    const scope = this.options.scope()
    const instances: GuardInstance[] = []
    for (const instance of scope ? this.billed() : []) {
      // One instance whose figures cannot be made is left out (its part says why), never the rest.
      const entry = this.rulesPart(instance).run(() => this.entryOf(scope!, instance, now))
      if (entry) instances.push(entry)
    }
    const rate = burnRate(instances.map((entry) => entry.meter))
    const left = runway(this.options.balance?.(), rate)
    const stops = scope ? this.options.store.stops.entries(scope).map(([instanceId, stop]) => ({ instanceId, ...stop })) : []
    return {
      at: now,
      burnRatePerHour: rate,
      billedCount: instances.length,
      ...(left ? { runway: left } : {}),
      instances,
      ...(stops.length > 0 ? { stops } : {})
    }
  }

  private entryOf(scope: string, instance: Instance, now: number): GuardInstance | undefined {
    const instanceId = instance.instanceMetadata.instanceId
    const state = this.options.store.get(scope, instanceId)
    if (!state) return undefined
    const meter = meterOf(instance, this.runStart(instance, state), now)
    const gpu = this.activity(instance)
    const idleBlockedBy =
      state.rules.idle && gpu.state !== 'probing' ? (gpu.state === 'off' ? 'It is not running yet.' : gpu.reason) : undefined
    return {
      instanceId,
      name: instance.instanceSpecInfo.name,
      meter,
      rules: state.rules,
      ruleWords: ruleWords(state.rules),
      ...(state.countdown ? { countdown: state.countdown } : {}),
      ...(state.nextReminderAt !== undefined ? { nextReminderAt: state.nextReminderAt } : {}),
      ...(state.keepRunningUntil !== undefined && state.keepRunningUntil > now ? { keepRunningUntil: state.keepRunningUntil } : {}),
      gpu,
      ...(idleBlockedBy !== undefined ? { idleBlockedBy } : {})
    }
  }

  /** What Quit offers to stop (Settings → "On Quit, offer to stop running instances"). */
  quitOffer(): QuitOffer | null {
    if (!this.options.settings.get().costGuard.offerStopOnQuit) return null
    const snapshot = this.snapshot()
    const stoppable = this.billed().filter(canStop)
    const ids = new Set(stoppable.map((instance) => instance.instanceMetadata.instanceId))
    const offered = snapshot.instances.filter((entry) => ids.has(entry.instanceId))
    if (offered.length === 0) return null
    return {
      instances: offered.map((entry) => ({ instanceId: entry.instanceId, name: entry.name, hourlyRate: entry.meter.hourlyRate })),
      burnRatePerHour: burnRate(offered.map((entry) => entry.meter))
    }
  }

  /** Quit's "Stop and quit": every stoppable instance, through the Stop button's command. */
  async stopAll(): Promise<{ stopped: string[]; failed: { instanceId: string; message: string }[] }> {
    const targets = this.billed()
      .filter(canStop)
      .map((instance) => instance.instanceMetadata.instanceId)
    const results = await Promise.all(targets.map(async (instanceId) => ({ instanceId, result: await this.options.stop(instanceId) })))
    return {
      stopped: results.filter((entry) => entry.result.ok).map((entry) => entry.instanceId),
      failed: results.flatMap((entry) => (entry.result.ok ? [] : [{ instanceId: entry.instanceId, message: entry.result.error.message }]))
    }
  }

  /** Resolves once the rules changed so far are on disk (Quit waits for it). */
  flushed(): Promise<void> {
    return this.options.store.flushed()
  }

  dispose(): void {
    this.disposed = true
    this.options.clock.clearTimeout(this.wakeTimer)
    this.options.clock.clearTimeout(this.readingsTimer)
    this.probes?.dispose()
  }

  // ------------------------------------------------------------------ internals

  private billed(): Instance[] {
    return uniqueBy(this.options.instances.snapshot().instances, (i) => i.instanceMetadata.instanceId).items.filter(isBilled)
  }

  private require(instanceId: string): { scope: string; instance: Instance; state: RuleState } {
    const scope = this.options.scope()
    if (!scope) throw new AppError('no-session', 'Sign in to set rules for your instances.')
    const instance = this.billed().find((i) => i.instanceMetadata.instanceId === instanceId)
    const state = instance ? this.options.store.get(scope, instanceId) : undefined
    if (!instance || !state) throw new AppError('not-allowed', 'That instance is not running any more, so it has no rules to change.')
    return { scope, instance, state }
  }

  private runStart(instance: Instance, state: RuleState): RunStart {
    return state.runSeenAt !== undefined ? { at: state.runSeenAt, source: 'seen' } : createdRunStart(instance)
  }

  private activity(instance: Instance): GuardInstance['gpu'] {
    if (!isRunning(instance)) return { state: 'off' }
    if (!this.probes) return { state: 'unavailable', reason: NO_RUNNER, history: [] }
    return this.probes.activity(instance.instanceMetadata.instanceId)
  }

  /** Brings the rules in line with the snapshot, evaluates every billed instance, acts, and tells. */
  private look(): void {
    if (this.disposed) return
    const scope = this.options.scope()
    const snapshot = this.options.instances.snapshot()
    if (scope !== this.seenScope) {
      this.billedWhenSeen = new Map()
      this.seenScope = scope
      if (scope) this.markCountdowns(scope)
    }
    if (!scope || snapshot.fetchedAt === null) {
      this.probes?.update(new Map())
      this.schedule(undefined)
      this.publish()
      return
    }
    const now = this.options.clock.now()
    const { store } = this.options
    const listed = uniqueBy(snapshot.instances, (i) => i.instanceMetadata.instanceId).items
    const ids = new Set(listed.map((i) => i.instanceMetadata.instanceId))
    // Stopped, released or gone: its rules end with its run; what the guard stopped is remembered while it is listed.
    for (const [instanceId] of store.entries(scope)) if (!ids.has(instanceId)) this.clear(scope, instanceId)
    for (const [instanceId] of store.stops.entries(scope)) if (!ids.has(instanceId)) store.stops.delete(scope, instanceId)
    const targets = new Map<string, ProbeTarget>()
    const wakes: number[] = []
    for (const instance of listed) {
      this.names.set(instance.instanceMetadata.instanceId, instance.instanceSpecInfo.name)
      // Each instance under its own guard: one that throws is shown as such; the others' rules act.
      this.rulesPart(instance).run(() => this.lookAt(scope, instance, now, targets, wakes))
    }
    this.probes?.update(targets)
    this.schedule(lowest(wakes))
    this.publish()
  }

  /** One listed instance: its rules brought in line, evaluated and acted on; its probe target and wake time noted. */
  private lookAt(scope: string, instance: Instance, now: number, targets: Map<string, ProbeTarget>, wakes: number[]): void {
    const { store } = this.options
    const instanceId = instance.instanceMetadata.instanceId
    const billed = isBilled(instance)
    const wasBilled = this.billedWhenSeen.get(instanceId)
    this.billedWhenSeen.set(instanceId, billed)
    if (!billed) {
      this.clear(scope, instanceId)
      return
    }
    let state = store.get(scope, instanceId)
    if (!state) {
      state = initialState(this.options.settings.get().costGuard.defaults, now)
      // Seen to begin (not billed before, billed now): the run starts now, not at its creation.
      if (wasBilled === false) state.runSeenAt = now
    }
    if (isRunning(instance)) targets.set(instanceId, sshEndpoint(instance).ok ? { probe: true } : { probe: false, reason: NO_SSH_PORT })
    const countdownMs = this.options.settings.get().costGuard.countdownMinutes * 60_000
    let resumed: RuleEffect | undefined
    if (this.toResume.delete(`${scope}\n${instanceId}`)) {
      const again = resumeCountdown(state, now, countdownMs)
      state = again.state
      if (again.resumed) resumed = { kind: 'countdown', countdown: again.resumed }
    }
    const samples = this.probes?.samples(instanceId) ?? []
    // Readings that come through again end a GPU fault shown for this instance.
    if (samples.at(-1)?.missed === undefined && samples.length > 0) this.gpuPart(instanceId).ok()
    const step = evaluate(state, {
      now,
      runStartedAt: this.runStart(instance, state).at,
      stoppable: canStop(instance),
      countdownMs,
      ...(state.rules.idle ? { idle: idleEvidence(samples, state.rules.idle.belowPercent, now) } : {}),
      ...(planEndsAt(instance) !== undefined ? { planEndsAt: planEndsAt(instance)! } : {})
    })
    if (JSON.stringify(step.state) !== JSON.stringify(store.get(scope, instanceId))) store.set(scope, instanceId, step.state)
    if (step.wakeAt !== undefined) wakes.push(step.wakeAt)
    // A countdown that ends in the same look (idle, with no readings yet) is only told as ended.
    if (resumed && step.state.countdown) this.act(scope, instance, step.state, resumed, true)
    for (const effect of step.effects) this.act(scope, instance, step.state, effect, false)
  }

  /** The part that is this instance's rules (supervisor.ts). */
  private rulesPart(instance: Instance): Part {
    const instanceId = instance.instanceMetadata.instanceId
    return this.supervisor.part(`cost:${instanceId}`, () => ({
      message: `The cost guard cannot check the rules of ${shownName(instance.instanceSpecInfo.name)} right now (an internal error; the details are in the log). Your other instances' rules go on; keep an eye on this one, or stop it by hand.`,
      short: `Rules of ${shownName(instance.instanceSpecInfo.name)} not checked`
    }))
  }

  /** The part that is this instance's GPU readings (supervisor.ts). */
  private gpuPart(instanceId: string): Part {
    return this.supervisor.part(`gpu:${instanceId}`, () => {
      const name = shownName(this.names.get(instanceId) ?? instanceId)
      return {
        message: `GPU activity for ${name} is unavailable: the instance sent readings we cannot use. Its idle rule waits for readings it can trust; its other rules go on.`,
        short: `GPU activity for ${name} unavailable`
      }
    })
  }

  private lookAfterReadings(): void {
    if (this.readingsTimer !== undefined || this.disposed) return
    this.readingsTimer = this.options.clock.setTimeout(() => {
      this.readingsTimer = undefined
      this.look()
    }, READINGS_LOOK_DELAY_MS)
  }

  private clear(scope: string, instanceId: string): void {
    this.options.store.delete(scope, instanceId)
    this.toResume.delete(`${scope}\n${instanceId}`)
    // Its run is over: whatever failed for it is no longer news.
    this.supervisor.forget(`cost:${instanceId}`)
    this.supervisor.forget(`gpu:${instanceId}`)
    this.names.delete(instanceId)
    this.unsure.delete(instanceId)
  }

  private schedule(at: number | undefined): void {
    const { clock } = this.options
    clock.clearTimeout(this.wakeTimer)
    this.wakeTimer = undefined
    if (at === undefined || this.disposed) return
    this.wakeTimer = clock.setTimeout(() => this.look(), Math.max(0, at - clock.now()))
  }

  private publish(): void {
    this.options.emit('cost', this.snapshot())
  }

  private subject(instance: Instance, state: RuleState): NoticeSubject {
    const meter = meterOf(instance, this.runStart(instance, state), this.options.clock.now())
    return {
      instanceId: instance.instanceMetadata.instanceId,
      name: instance.instanceSpecInfo.name,
      hourlyRate: meter.hourlyRate,
      costSoFar: meter.costSoFar
    }
  }

  private act(scope: string, instance: Instance, state: RuleState, effect: RuleEffect, resumed: boolean): void {
    const { notify, clock } = this.options
    const id = notify.id
    const subject = this.subject(instance, state)
    switch (effect.kind) {
      case 'remind':
        return notify.deliver(reminderNotice(id, subject, effect.runningMs))
      case 'countdown':
        if (effect.countdown.retry) return
        return notify.deliver(countdownNotice(id, subject, effect.countdown, clock.now(), resumed))
      case 'countdown-cancelled':
        return notify.deliver(cancelledNotice(id, subject, effect.why))
      case 'plan-ending':
        return notify.deliver(
          planEndingNotice(id, subject, planTerm(instance) ?? { chargeMode: '', periods: 1 }, effect.endsAt, clock.now())
        )
      case 'stop':
        void this.stop(scope, subject, effect.rule, effect.reason, effect.retry === true)
    }
  }

  /** The Stop button's command; afterwards the user is told why, or why it could not be done. */
  private async stop(
    scope: string,
    subject: NoticeSubject,
    rule: Parameters<typeof stopFailed>[1],
    reason: string,
    retrying: boolean
  ): Promise<void> {
    const result = await this.options.stop(subject.instanceId)
    if (this.disposed) return
    const { notify } = this.options
    if (result.ok) {
      this.unsure.delete(subject.instanceId)
      this.options.store.stops.set(scope, subject.instanceId, { at: this.options.clock.now(), reason })
      notify.deliver(stoppedNotice(notify.id, subject, reason))
      this.publish()
      return
    }
    const state = this.options.store.get(scope, subject.instanceId)
    if (!state) return
    this.options.store.set(scope, subject.instanceId, stopFailed(state, rule, reason, this.options.clock.now()))
    // A stop whose answer never came may well have happened (the answer was lost on its way back):
    // "Could not stop … still costing money" waits for the retry a minute later, by which time
    // the list shows whether it stopped (then nothing is said) or the retry failed too.
    if (!retrying && result.error.kind === 'network') this.unsure.add(subject.instanceId)
    else if (!retrying || this.unsure.delete(subject.instanceId)) notify.deliver(stopFailedNotice(notify.id, subject, result.error.message))
    this.look()
  }
}

/** «name» as a sentence shows it: visible characters, not too long. */
function shownName(name: string): string {
  return `«${cutText(visibleText(name), 60)}»`
}

function planEndsAt(instance: Instance): number | undefined {
  return planTerm(instance)?.endsAt ?? undefined
}
