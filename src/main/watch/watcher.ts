/**
 * The instance watcher: pages through the list, keeps the snapshot, diffs it, and emits the
 * snapshot (`instances`), the status transitions and its health (`watch.health`) on the hub, for
 * the windows and the parts of main that follow them. One poll at a time, ever: a poll asked for while one
 * runs is served by one more poll right after it. Timing comes from the pure schedule
 * (schedule.ts) on an injected Clock, so tests run hours of polling without sleeping.
 *
 * It also judges stuck starts (stuck.ts): each is told once per episode (`onStuck`), listed in
 * the snapshot, and no longer keeps the poller fast, since waiting on it is all there is to do.
 */
import type { Instance, InstanceListing, UnreadableInstance } from '../../shared/api'
import { statusGroup } from '../../shared/instance-rules'
import type { Clock, TimerHandle } from '../../shared/clock'
import type { ErrorInfo, InstancesSnapshot, PollMode, StuckStart, Transition, WatchHealth } from '../../shared/contract'
import type { CoreLog, EventSink, SystemEvent } from '../core-types'
import { diffSnapshots } from './diff'
import { nextPoll } from './schedule'
import { StuckStarts } from './stuck'

export type PauseReason = 'signed-out' | 'asleep'

export interface WatcherOptions {
  clock: Clock
  /** Every instance of the signed-in user (all pages), and the rows that could not be read. */
  list(): Promise<InstanceListing>
  intervals(): { fastMs: number; steadyMs: number }
  /** How long a start may stay in one status before it counts as stuck (the user's setting). */
  stuckAfterMs?(): number
  /** Starts that became stuck with this poll: each is told once, until it moves again. */
  onStuck?(stuck: StuckStart[]): void
  /** Error → plain data; the watcher switches on `kind`. */
  toErrorInfo(error: unknown): ErrorInfo
  random?: () => number
  /** The hub: `instances` after every poll, `transitions` when statuses moved, `watch.health` when polling fails or recovers. */
  emit: EventSink
  log?: Pick<CoreLog, 'info' | 'warn'> | undefined
  /** The API answered not-logged-in: the watcher has paused itself; the session should expire. */
  onNotLoggedIn(): void
}

type PollOutcome =
  { kind: 'ok'; transitions: Transition[]; newlyStuck: StuckStart[] } | { kind: 'failed'; error: ErrorInfo } | { kind: 'stale' }

export class Watcher {
  private readonly pauses = new Set<PauseReason>(['signed-out'])
  private inFlight: Promise<void> | undefined
  /** Callers of pollNow waiting for a poll that starts after their request. */
  private queued: (() => void)[] = []
  private timer: TimerHandle | undefined
  private previous: Instance[] | null = null
  private instances: Instance[] = []
  private unreadable: UnreadableInstance[] = []
  private readonly stuck = new StuckStarts()
  private fetchedAt: number | null = null
  private failures = 0
  private lastActionAt: number | undefined
  private errorKey: string | undefined
  private mode: PollMode = 'paused'
  private nextPollAt: number | undefined
  /** Bumped when the session changes or the watcher stops: results of older polls are dropped. */
  private generation = 0
  private stopped = false

  constructor(private readonly options: WatcherOptions) {}

  snapshot(): InstancesSnapshot {
    return {
      instances: this.instances,
      unreadable: this.unreadable,
      stuck: this.stuck.current(),
      fetchedAt: this.fetchedAt,
      mode: this.mode,
      ...(this.nextPollAt !== undefined ? { nextPollAt: this.nextPollAt } : {})
    }
  }

  find(instanceId: string): Instance | undefined {
    return this.instances.find((i) => i.instanceMetadata.instanceId === instanceId)
  }

  get polling(): boolean {
    return this.inFlight !== undefined
  }

  // ------------------------------------------------ the session's moments (account.listen)

  /**
   * A session started. `continued`: the same user signed in again after an expiry, so changes
   * made meanwhile still show as transitions; otherwise the first snapshot emits none.
   */
  started(continued: boolean): void {
    this.generation++
    if (!continued) this.reset()
    this.failures = 0
    this.resume('signed-out')
  }

  /** Signing out: forget everything the old session saw. */
  ending(): void {
    this.generation++
    this.reset()
    this.pause('signed-out')
  }

  /** The session expired: stop polling but keep the snapshot on screen. */
  expired(): void {
    this.generation++
    this.pause('signed-out')
  }

  pause(reason: PauseReason): void {
    this.pauses.add(reason)
    this.options.clock.clearTimeout(this.timer)
    this.timer = undefined
    this.nextPollAt = undefined
    this.setMode('paused')
    this.releaseQueued()
  }

  /** Lifts one pause; when none is left, polls at once (wake, sign-in). */
  resume(reason: PauseReason): void {
    this.pauses.delete(reason)
    if (this.pauses.size === 0) this.kick()
  }

  /** Polls now and resolves once a poll that started after this call has finished. */
  pollNow(): Promise<void> {
    if (this.isPaused()) return Promise.resolve()
    return new Promise((resolve) => {
      this.queued.push(resolve)
      this.kick()
    })
  }

  /** Window focus: a fresh look, unless the snapshot is fresh already or the API is failing. */
  focus(): void {
    if (this.failures > 0) return
    const age = this.fetchedAt === null ? Infinity : this.options.clock.now() - this.fetchedAt
    if (age >= this.options.intervals().fastMs) void this.pollNow()
  }

  /** The network came back: try now even while backing off. */
  online(): void {
    void this.pollNow()
  }

  /** This app created, stopped or terminated something: poll fast for a while, starting now. */
  actionHappened(): void {
    this.lastActionAt = this.options.clock.now()
    void this.pollNow()
  }

  /** The shell's power and network hints: asleep pauses, waking and coming online look again. */
  onSystemEvent(event: SystemEvent): void {
    if (event === 'suspend') this.pause('asleep')
    else if (event === 'resume') this.resume('asleep')
    else if (event === 'online') this.online()
    else if (event === 'focus') this.focus()
  }

  stop(): void {
    this.stopped = true
    this.generation++
    this.pause('signed-out')
  }

  private isPaused(): boolean {
    return this.stopped || this.pauses.size > 0
  }

  private reset(): void {
    this.previous = null
    this.instances = []
    this.unreadable = []
    this.stuck.clear()
    this.fetchedAt = null
    this.failures = 0
    this.lastActionAt = undefined
    if (this.errorKey !== undefined) {
      this.errorKey = undefined
      this.health({ state: 'ok' })
    }
    this.options.emit('instances', this.snapshot())
  }

  private kick(): void {
    if (this.inFlight || this.isPaused()) return
    this.options.clock.clearTimeout(this.timer)
    this.timer = undefined
    const waiters = this.queued
    this.queued = []
    const generation = this.generation
    this.inFlight = this.runPoll(generation)
      .catch((error: unknown): PollOutcome => ({ kind: 'failed', error: this.options.toErrorInfo(error) }))
      .then((outcome) => {
        this.inFlight = undefined
        // A stale answer belongs to an older session: the new one still needs its first poll.
        if (outcome.kind === 'stale' && !this.isPaused()) {
          for (const waiter of waiters) this.queued.push(waiter)
          this.kick()
          return
        }
        this.settle(outcome)
        for (const waiter of waiters) waiter()
        if (this.queued.length > 0) this.kick()
      })
  }

  private async runPoll(generation: number): Promise<PollOutcome> {
    let listing: InstanceListing
    try {
      listing = await this.options.list()
    } catch (error) {
      if (generation !== this.generation) return { kind: 'stale' }
      return { kind: 'failed', error: this.options.toErrorInfo(error) }
    }
    if (generation !== this.generation) return { kind: 'stale' }
    const list = listing.instances
    const transitions = diffSnapshots(this.previous, list)
    this.previous = list
    this.instances = list
    this.unreadable = listing.unreadable
    this.fetchedAt = this.options.clock.now()
    const newlyStuck = this.stuck.update(list, this.fetchedAt, this.options.stuckAfterMs?.() ?? Infinity)
    return { kind: 'ok', transitions, newlyStuck }
  }

  private settle(outcome: PollOutcome): void {
    if (outcome.kind === 'stale') {
      this.schedule()
      return
    }
    if (outcome.kind === 'failed' && outcome.error.kind === 'not-logged-in') {
      this.pause('signed-out')
      this.options.onNotLoggedIn()
      return
    }
    if (outcome.kind === 'failed') {
      this.failures++
      this.schedule()
      const key = `${outcome.error.kind}\u0000${outcome.error.message}`
      if (key !== this.errorKey) {
        this.errorKey = key
        this.health({
          state: 'failing',
          error: outcome.error,
          ...(this.nextPollAt !== undefined ? { retryAt: this.nextPollAt } : {})
        })
      }
      this.options.emit('instances', this.snapshot())
      return
    }
    const recovered = this.failures > 0 || this.errorKey !== undefined
    this.failures = 0
    this.errorKey = undefined
    this.schedule()
    if (recovered) this.health({ state: 'ok' })
    this.options.emit('instances', this.snapshot())
    if (outcome.transitions.length > 0) this.options.emit('transitions', outcome.transitions)
    if (outcome.newlyStuck.length > 0) this.options.onStuck?.(outcome.newlyStuck)
  }

  private health(health: WatchHealth): void {
    const { log } = this.options
    if (health.state === 'failing') log?.warn(`watch failing: ${health.error?.kind}: ${health.error?.message}`)
    else log?.info('watch recovered')
    this.options.emit('watch.health', health)
  }

  private schedule(): void {
    this.options.clock.clearTimeout(this.timer)
    this.timer = undefined
    if (this.isPaused()) {
      this.nextPollAt = undefined
      this.setMode('paused')
      return
    }
    const now = this.options.clock.now()
    const { fastMs, steadyMs } = this.options.intervals()
    const decision = nextPoll({
      now,
      fastMs,
      steadyMs,
      // A stuck start will not move by itself: polling fast for it only costs requests.
      anyTransitioning: this.instances.some(
        (i) => statusGroup(i.instanceRuntimeInfo.status) === 'transitioning' && !this.stuck.has(i.instanceMetadata.instanceId)
      ),
      lastActionAt: this.lastActionAt,
      consecutiveFailures: this.failures,
      random: (this.options.random ?? Math.random)()
    })
    this.setMode(decision.mode)
    this.nextPollAt = now + decision.delayMs
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined
      this.kick()
    }, decision.delayMs)
  }

  private setMode(mode: PollMode): void {
    this.mode = mode
  }

  private releaseQueued(): void {
    const waiters = this.queued
    this.queued = []
    for (const waiter of waiters) waiter()
  }
}
