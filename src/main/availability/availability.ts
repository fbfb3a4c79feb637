/**
 * The availability watch (#26): waits for stock of what the user wants and tells them, or
 * launches it when they pre-authorised it; and relaunches a reclaimed spot instance that asked
 * for it. Watches live per account (`<dataDir>/stock-watches.json`, relaunch rules in
 * `relaunch-rules.json`) and survive restarts.
 *
 * - One shared catalog read (`POST /resource/user/instance/list`) serves every watch: one read
 *   per interval (60 s) whatever their number, none without a watch, backing off on errors,
 *   paused while signed out or asleep. The read goes through the catalog cache, so the create
 *   form sees the same stock.
 * - Stock found: the user is told (Launch now / Dismiss). A watch with "Launch automatically"
 *   launches through the Create button's own command (`instances.create`: create-once, so a lost
 *   answer never makes a second instance; recorded as this app's own), only at or below its
 *   price ceiling and before its deadline; it ends when one instance is created (the `launched`
 *   event) or its deadline passes. A launch whose outcome stays unknown waits for the user.
 * - Stock that came and went is remembered, so a late "Launch now" says so instead of opening a
 *   review for something that is no longer there.
 * - A reclaim (`reclaimed`, heard from the notifier): with a relaunch rule (the instance's, or
 *   its template's) a watch relaunches it with the same spec and volumes; without, a notice
 *   offers "Relaunch like this one".
 */
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { InstanceCatalog } from '../../shared/catalog'
import type { Clock, TimerHandle } from '../../shared/clock'
import type { AppNotification, ErrorInfo, NotificationKind } from '../../shared/contract'
import type {
  AutoLaunch,
  AvailabilitySnapshot,
  LaunchFill,
  LaunchNowOutcome,
  LaunchOrigin,
  LaunchSpec,
  RelaunchRule,
  StockChecks,
  StockTarget,
  StockWatch,
  WatchOrigin
} from '../../shared/contract-launch'
import type { CreateInstanceRequest } from '../../shared/create-request'
import { DraftLaunchSpecSchema, LaunchSpecSchema, RelaunchRuleSchema, StockTargetSchema, firstProblem } from '../../shared/launch-spec'
import { AppError } from '../app-error'
import { toErrorInfo } from '../error-info'
import type { CreateCommand, EventFeed, EventSink, SystemEvent } from '../core-types'
import { ScopedStore, scopedStoresOf } from '../util/scoped-store'
import { backoffDelay } from '../watch/schedule'
import {
  aboveCeilingWords,
  deadlineNotice,
  goneWords,
  inStockNotice,
  launchedNotice,
  needsYouNotice,
  reclaimedNotice,
  relaunchingNotice
} from './notices'
import { firstInStock, targetWords, type Found } from './stock'
import type { SaveProblems } from '../util/save-problems'

/** One catalog read per this long, whatever the number of watches. */
export const STOCK_CHECK_INTERVAL_MS = 60_000
/** Failing reads back off from the interval, doubling, up to this. */
export const STOCK_BACKOFF_MAX_MS = 15 * 60_000
/** A user's "Launch now" reads again unless the last read is this fresh. */
export const LAUNCH_NOW_FRESH_MS = 5_000
/** Watches per account: more than anyone waits for at once. */
export const MAX_WATCHES = 100

type Pause = 'signed-out' | 'asleep'

const time = z.number().finite()
const text = z.string().max(2_000)
const id = z.string().min(1).max(200)
const SightingSchema = z.object({ regionId: text, regionName: text, price: time, hourlyRate: time, since: time })
const WatchSchema = z.object({
  watchId: id,
  target: StockTargetSchema,
  label: text,
  spec: DraftLaunchSpecSchema,
  auto: z.object({ maxPricePerHour: time, deadline: time }).nullable(),
  origin: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('form') }),
    z.object({ kind: z.literal('template'), templateId: id }),
    z.object({ kind: z.literal('reclaim'), instanceId: id, name: text })
  ]),
  createdAt: time,
  state: z.enum(['waiting', 'in-stock', 'launching', 'needs-you']),
  available: SightingSchema.optional(),
  cameAndWent: z.object({ regionName: text, from: time, until: time }).optional(),
  note: text.optional()
}) satisfies z.ZodType<StockWatch, unknown>

export interface AvailabilityOptions {
  dataDir: string
  clock: Clock
  /** Where a refused write of the watches or the relaunch rules is told to the user. */
  problems: SaveProblems
  /** The hub: `availability` whenever a watch or the checks change. */
  emit: EventSink
  /** The hub: `launched` ends the watch a launch answered; `reclaimed` starts a relaunch; `transitions` forgets rules of gone instances. */
  events: EventFeed
  /** Whose watches (`profileId/username`, undefined while signed out); a refused session expires. */
  account: { accountKey(): string | undefined; expire(pending: null): unknown }
  /** The shared catalog read (through the cache, so the create form sees it; rejects when it fails), and what is cached. */
  catalog: { read(): Promise<InstanceCatalog>; profileId(): string; view(profileId: string): { catalog: InstanceCatalog | null } }
  /** What this app launched an instance with and from which template (undefined: not launched here), and a template's relaunch rule. */
  templates: {
    launchOf(instanceId: string): { spec: LaunchSpec; templateId?: string } | undefined
    find(ref: string): { relaunch: RelaunchRule | null } | undefined
  }
  /** The Create button's command: create-once, this app's own action, the launch book. */
  create: CreateCommand
  /** The notifier: what the watch says, under the notifier's ids. */
  notifier: { deliver(notification: AppNotification): void; id(kind: NotificationKind, instanceId?: string): string }
  /** How often to read (default STOCK_CHECK_INTERVAL_MS). */
  stockCheckIntervalMs?: number
  random?: () => number
  log?: { warn(message: string, data?: unknown): void }
}

export class Availability {
  private readonly watches: ScopedStore<StockWatch>
  private readonly rules: ScopedStore<RelaunchRule>
  private readonly pauses = new Set<Pause>(['signed-out'])
  private timer: TimerHandle | undefined
  private nextReadAt: number | undefined
  private reading: Promise<InstanceCatalog | undefined> | undefined
  private lastReadAt: number | null = null
  private lastCatalog: InstanceCatalog | null = null
  private failures = 0
  private error: ErrorInfo | undefined
  private disposed = false
  private readonly intervalMs: number

  constructor(private readonly options: AvailabilityOptions) {
    const store = scopedStoresOf('availability', options)
    this.watches = store({ file: 'stock-watches.json', record: WatchSchema, what: 'what you were waiting for in stock' })
    this.rules = store({ file: 'relaunch-rules.json', record: RelaunchRuleSchema, what: 'your automatic relaunches' })
    this.intervalMs = options.stockCheckIntervalMs ?? STOCK_CHECK_INTERVAL_MS
    options.events.on('launched', ({ instanceId, origin }) => this.launched(instanceId, origin))
    options.events.on('reclaimed', (list) => {
      for (const { instanceId, name } of list) this.reclaimed(instanceId, name)
    })
    options.events.on('transitions', (transitions) => {
      const scope = this.scope()
      if (!scope) return
      // An instance gone from the list has nothing left to relaunch.
      for (const t of transitions) if (t.to === null) this.rules.delete(scope, t.instanceId)
    })
  }

  /** Both files, at start; a launch under way when the app ended waits for the user (its outcome is unknown). */
  async load(): Promise<string[]> {
    const results = await Promise.all([this.watches.load(), this.rules.load()])
    this.recoverInterrupted()
    return results.flatMap((result) => (result.warning ? [result.warning] : []))
  }

  /** Watches whose launch was cut short by the app ending: never sent again without the user. */
  private recoverInterrupted(): void {
    for (const scope of this.watches.scopes())
      for (const [watchId, watch] of this.watches.entries(scope)) {
        if (watch.state !== 'launching') continue
        this.watches.set(scope, watchId, {
          ...watch,
          state: 'needs-you',
          note: 'Cloud Tray was closed while launching it, so it cannot tell whether the instance was made. Check your instances before launching again.'
        })
      }
  }

  flushed(): Promise<void> {
    return Promise.all([this.watches.flushed(), this.rules.flushed()]).then(() => undefined)
  }

  // ------------------------------------------------------------------ the session's and the system's moments

  /** A session began (account.listen): the watches of this account are checked now if due. */
  started(): void {
    this.resume('signed-out')
  }

  ending(): void {
    this.pause('signed-out')
    this.lastCatalog = null
    this.lastReadAt = null
    this.failures = 0
    this.error = undefined
  }

  expired(): void {
    this.pause('signed-out')
  }

  onSystemEvent(event: SystemEvent): void {
    if (event === 'suspend') this.pause('asleep')
    else if (event === 'resume') this.resume('asleep')
    else if (event === 'online' && this.failures > 0) this.schedule(0)
  }

  stop(): void {
    this.disposed = true
    this.options.clock.clearTimeout(this.timer)
    this.timer = undefined
  }

  // ------------------------------------------------------------------ what the commands ask

  snapshot(): AvailabilitySnapshot {
    const scope = this.scope()
    const watches = scope
      ? this.watches
          .entries(scope)
          .map(([, watch]) => watch)
          .sort((a, b) => b.createdAt - a.createdAt)
      : []
    const relaunch = scope ? this.rules.entries(scope).map(([instanceId, rule]) => ({ instanceId, rule })) : []
    return { watches, checks: this.checks(watches.length > 0), relaunch }
  }

  /** Starts a watch; the first read follows at once (or at the interval's next turn, whichever is sooner). */
  watch(input: {
    target: StockTarget
    spec: LaunchSpec
    auto: (AutoLaunch & { deadline: number }) | null
    origin?: WatchOrigin
  }): StockWatch {
    const scope = this.requireScope()
    if (this.watches.entries(scope).length >= MAX_WATCHES)
      throw new AppError('not-allowed', `You are waiting for ${MAX_WATCHES} things already. Stop watching some first.`)
    const now = this.options.clock.now()
    const target = { ...input.target, regions: [...new Set(input.target.regions)] }
    const spec: LaunchSpec = {
      ...input.spec,
      request: {
        ...input.spec.request,
        instanceTypeId: target.instanceTypeId,
        region: target.regions[0]!,
        billing: billingFor(input.spec.request, target)
      },
      regions: target.regions
    }
    if (input.auto) {
      if (input.auto.deadline <= now)
        throw new AppError('bad-input', 'The deadline has passed already: choose a later one.', { field: 'auto.deadline' })
      // What is launched without asking again must be complete now: nobody is there to fix it later.
      const complete = LaunchSpecSchema.safeParse(spec)
      if (!complete.success) {
        const problem = firstProblem(complete.error, 'spec')
        throw new AppError('bad-input', `To launch by itself it needs a complete launch; ${describeMissing(problem.field)}`, {
          field: problem.field
        })
      }
    }
    const watch: StockWatch = {
      watchId: randomUUID(),
      target,
      label: targetWords(this.lastCatalog ?? this.cachedCatalog(), target),
      spec,
      auto: input.auto,
      origin: input.origin ?? { kind: 'form' },
      createdAt: now,
      state: 'waiting'
    }
    this.watches.set(scope, watch.watchId, watch)
    this.changed()
    this.schedule(0)
    return watch
  }

  cancel(watchId: string): void {
    const scope = this.requireScope()
    if (!this.watches.get(scope, watchId)) return
    this.watches.delete(scope, watchId)
    this.changed()
    this.schedule()
  }

  /**
   * "Launch now": reads the catalog again (unless the last read is seconds old) and answers the
   * review step filled in where stock is; if it came and went, says so and fills the form only.
   * Nothing is created here: the user presses Launch in the review.
   */
  async launchNow(watchId: string): Promise<LaunchNowOutcome> {
    const scope = this.requireScope()
    if (!this.watches.get(scope, watchId))
      throw new AppError('not-allowed', 'That watch has ended: its instance was launched, its deadline passed, or it was cancelled.')
    const fresh = this.lastReadAt !== null && this.options.clock.now() - this.lastReadAt < LAUNCH_NOW_FRESH_MS
    if (!fresh) await this.check()
    const watch = this.watches.get(scope, watchId)
    if (!watch) throw new AppError('not-allowed', 'That watch has ended: its instance was launched meanwhile.')
    const found = firstInStock(this.lastCatalog, watch.target)
    const origin = originOf(watch)
    if (!found) {
      const message = watch.cameAndWent
        ? goneWords(watch)
        : `${watch.label} is not in stock right now. Cloud Tray keeps watching and tells you when it is.`
      return { kind: 'gone', message, fill: { spec: watch.spec, review: false, note: message, origin } }
    }
    const fill: LaunchFill = {
      spec: { ...watch.spec, request: { ...watch.spec.request, region: found.regionId } },
      review: true,
      note: `In stock now in ${found.regionName}. Check the launch, then press Launch.`,
      origin
    }
    return { kind: 'review', fill }
  }

  /** "Relaunch automatically when reclaimed" for one instance; null turns it off. */
  setRelaunch(instanceId: string, rule: RelaunchRule | null): AvailabilitySnapshot {
    const scope = this.requireScope()
    if (rule && !this.options.templates.launchOf(instanceId))
      throw new AppError(
        'not-allowed',
        'Cloud Tray did not launch this instance, so it does not know everything it was launched with (its image id, its init script) and cannot relaunch it by itself. Use Launch again, or save a template and launch from it.'
      )
    if (rule) this.rules.set(scope, instanceId, rule)
    else this.rules.delete(scope, instanceId)
    this.changed()
    return this.snapshot()
  }

  // ------------------------------------------------------------------ reading and judging

  /** One shared read, then every watch of the account judged; concurrent callers share the read. */
  check(): Promise<InstanceCatalog | undefined> {
    this.reading ??= this.readAndJudge().finally(() => {
      this.reading = undefined
      this.schedule()
    })
    return this.reading
  }

  private async readAndJudge(): Promise<InstanceCatalog | undefined> {
    const scope = this.scope()
    if (!scope || this.disposed) return undefined
    let catalog: InstanceCatalog
    try {
      catalog = await this.options.catalog.read()
    } catch (error) {
      const info = toErrorInfo(error)
      if (info.kind === 'not-logged-in') {
        this.pause('signed-out')
        void this.options.account.expire(null)
      } else {
        this.failures++
        this.error = info
      }
      this.endPastDeadlines(scope)
      this.changed()
      return undefined
    }
    if (this.scope() !== scope || this.disposed) return undefined
    this.failures = 0
    this.error = undefined
    this.lastReadAt = this.options.clock.now()
    this.lastCatalog = catalog
    this.endPastDeadlines(scope)
    const launches: Promise<void>[] = []
    for (const [, watch] of this.watches.entries(scope)) {
      const launch = this.judge(scope, watch, catalog)
      if (launch) launches.push(launch)
    }
    this.changed()
    await Promise.all(launches)
    return catalog
  }

  /** One watch against a fresh read; answers the launch it starts, if any. */
  private judge(scope: string, watch: StockWatch, catalog: InstanceCatalog): Promise<void> | undefined {
    if (watch.state === 'launching' || watch.state === 'needs-you') return undefined
    const now = this.options.clock.now()
    const found = firstInStock(catalog, watch.target)
    if (!found) {
      if (watch.state !== 'in-stock' || !watch.available) return undefined
      // It came and went: a late click says so.
      const { available: gone, note: _note, ...rest } = watch
      this.watches.set(scope, watch.watchId, {
        ...rest,
        state: 'waiting',
        cameAndWent: { regionName: gone.regionName, from: gone.since, until: now }
      })
      return undefined
    }
    const fresh = watch.state === 'waiting'
    const sighting = { ...found, since: fresh || !watch.available ? now : watch.available.since }
    const within = watch.auto !== null && now <= watch.auto.deadline && found.hourlyRate <= watch.auto.maxPricePerHour + 1e-9
    if (within) {
      this.watches.set(scope, watch.watchId, { ...withoutNote(watch), state: 'in-stock', available: sighting })
      return this.launch(scope, watch.watchId, found)
    }
    const note = watch.auto ? aboveCeilingWords(found, watch.auto.maxPricePerHour) : undefined
    const next: StockWatch = { ...withoutNote(watch), state: 'in-stock', available: sighting, ...(note ? { note } : {}) }
    this.watches.set(scope, watch.watchId, next)
    if (fresh) this.options.notifier.deliver(inStockNotice(this.options.notifier.id, next, found, note))
    return undefined
  }

  /** A pre-authorised launch, through the Create button's own command. */
  private async launch(scope: string, watchId: string, found: Found): Promise<void> {
    const watch = this.watches.get(scope, watchId)
    if (!watch) return
    this.watches.set(scope, watchId, { ...watch, state: 'launching' })
    this.changed()
    const request = { ...watch.spec.request, region: found.regionId }
    const result = await this.options.create(request, originOf(watch))
    if (result.ok) {
      // The `launched` event ended the watch already; the notice says what was done.
      if (this.watches.get(scope, watchId)) this.watches.delete(scope, watchId)
      this.changed()
      this.options.notifier.deliver(launchedNotice(this.options.notifier.id, watch, result.value.instanceId, found))
      return
    }
    const current = this.watches.get(scope, watchId)
    if (!current) return
    const { error } = result
    if (
      error.kind === 'maybe-created' ||
      error.kind === 'invalid-request' ||
      error.kind === 'already-exists' ||
      error.kind === 'bad-input'
    ) {
      // The cloud said no, or cannot tell whether it made one: never tried again without the user.
      const stockGone = error.kind === 'invalid-request' && /stock/i.test(error.message)
      if (stockGone) {
        this.watches.set(scope, watchId, {
          ...current,
          state: 'waiting',
          note: 'It went out of stock again before the launch; still waiting.'
        })
      } else {
        this.watches.set(scope, watchId, { ...current, state: 'needs-you', note: error.message })
        this.options.notifier.deliver(needsYouNotice(this.options.notifier.id, current, error.message))
      }
    } else {
      // Network, server, no session: create-once remembers an unknown outcome and looks for the
      // instance before it ever sends again, so the next read may try again safely.
      this.watches.set(scope, watchId, {
        ...current,
        state: 'in-stock',
        note: `The launch did not get through (${error.message.replace(/\.$/, '')}). Cloud Tray tries again at the next check, after making sure none was made.`
      })
    }
    this.changed()
  }

  /** The deadline of an automatic launch passed: the watch ends, and says so. */
  private endPastDeadlines(scope: string): void {
    const now = this.options.clock.now()
    for (const [watchId, watch] of this.watches.entries(scope)) {
      // A launch on its way, or one waiting for the user to look, is not dropped by the clock.
      if (!watch.auto || watch.auto.deadline >= now || watch.state === 'launching' || watch.state === 'needs-you') continue
      this.watches.delete(scope, watchId)
      this.options.notifier.deliver(deadlineNotice(this.options.notifier.id, watch))
    }
  }

  // ------------------------------------------------------------------ what the hub says

  /** An instance was created: a watch it answers ends; a relaunch inherits the reclaimed instance's rule. */
  private launched(instanceId: string, origin: LaunchOrigin | undefined): void {
    const scope = this.scope()
    if (!scope || !origin) return
    let changed = false
    if (origin.watchId && this.watches.get(scope, origin.watchId)) {
      this.watches.delete(scope, origin.watchId)
      changed = true
    }
    const rule = origin.relaunchOf ? this.rules.get(scope, origin.relaunchOf) : undefined
    if (rule) {
      this.rules.set(scope, instanceId, rule)
      changed = true
    }
    if (changed) {
      this.changed()
      this.schedule()
    }
  }

  /** A spot instance was reclaimed: relaunch it when it asked for that, else offer to. */
  private reclaimed(instanceId: string, name: string): void {
    const scope = this.scope()
    if (!scope) return
    const notify = this.options.notifier
    const id = notify.id
    const launch = this.options.templates.launchOf(instanceId)
    const rule =
      this.rules.get(scope, instanceId) ??
      (launch?.templateId ? this.options.templates.find(launch.templateId)?.relaunch : undefined) ??
      undefined
    if (!rule || !launch) {
      notify.deliver(reclaimedNotice(id, instanceId, name))
      return
    }
    const { request, regions } = launch.spec
    const now = this.options.clock.now()
    try {
      const watch = this.watch({
        target: { instanceTypeId: request.instanceTypeId, regions, chargeMode: request.billing.chargeMode },
        spec: launch.spec,
        auto: { maxPricePerHour: rule.maxPricePerHour, deadline: now + rule.withinHours * 3_600_000 },
        origin: { kind: 'reclaim', instanceId, name }
      })
      notify.deliver(relaunchingNotice(id, instanceId, name, watch))
    } catch (error) {
      this.options.log?.warn('availability: could not start a relaunch', { error: String(error) })
      notify.deliver(reclaimedNotice(id, instanceId, name))
    }
  }

  // ------------------------------------------------------------------ timing

  private scope(): string | undefined {
    return this.options.account.accountKey()
  }

  private cachedCatalog(): InstanceCatalog | null {
    return this.options.catalog.view(this.options.catalog.profileId()).catalog
  }

  private pause(reason: Pause): void {
    this.pauses.add(reason)
    this.options.clock.clearTimeout(this.timer)
    this.timer = undefined
    this.nextReadAt = undefined
    this.changed()
  }

  private resume(reason: Pause): void {
    this.pauses.delete(reason)
    this.schedule()
    this.changed()
  }

  private active(): boolean {
    const scope = this.scope()
    return !this.disposed && this.pauses.size === 0 && scope !== undefined && this.watches.entries(scope).length > 0
  }

  /**
   * Sets the next read: `delayMs` when given (a new watch: now), else the interval after the last
   * read (or a backoff after failures). Never two timers, never a read while one is on its way.
   */
  private schedule(delayMs?: number): void {
    this.options.clock.clearTimeout(this.timer)
    this.timer = undefined
    this.nextReadAt = undefined
    if (!this.active() || this.reading) return
    const now = this.options.clock.now()
    const due =
      delayMs !== undefined
        ? now + delayMs
        : this.failures > 0
          ? now + backoffDelay(this.failures, (this.options.random ?? Math.random)(), this.intervalMs, STOCK_BACKOFF_MAX_MS)
          : (this.lastReadAt ?? -Infinity) + this.intervalMs
    const wait = Math.max(0, due - now)
    this.nextReadAt = now + wait
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined
      void this.check()
    }, wait)
  }

  private checks(watching: boolean): StockChecks {
    const state: StockChecks['state'] = !watching ? 'off' : this.pauses.size > 0 ? 'paused' : this.failures > 0 ? 'backoff' : 'watching'
    return {
      state,
      intervalMs: this.intervalMs,
      lastReadAt: this.lastReadAt,
      ...(this.nextReadAt !== undefined ? { nextReadAt: this.nextReadAt } : {}),
      ...(this.error ? { error: this.error } : {})
    }
  }

  private requireScope(): string {
    const scope = this.scope()
    if (!scope) throw new AppError('no-session', 'Sign in to watch for stock.')
    return scope
  }

  private changed(): void {
    if (!this.disposed) this.options.emit('availability', this.snapshot())
  }
}

/** The watch's billing: its mode (hourly modes run one period at a time). */
function billingFor(request: CreateInstanceRequest, target: StockTarget): CreateInstanceRequest['billing'] {
  const hourly = target.chargeMode === 'perHour' || target.chargeMode === 'tidePerHour'
  return { chargeMode: target.chargeMode, duration: hourly ? 1 : request.billing.duration }
}

function originOf(watch: StockWatch): LaunchOrigin {
  return {
    watchId: watch.watchId,
    ...(watch.origin.kind === 'template' ? { templateId: watch.origin.templateId } : {}),
    ...(watch.origin.kind === 'reclaim' ? { relaunchOf: watch.origin.instanceId } : {})
  }
}

function withoutNote(watch: StockWatch): StockWatch {
  const { note: _note, ...rest } = watch
  return rest
}

/** What an automatic launch still needs, from the first field the check refused. */
function describeMissing(field: string): string {
  if (field.endsWith('request.name')) return 'give the instance a name in the form first.'
  if (field.endsWith('request.imageId')) return 'choose an image in the form first.'
  if (field.includes('remoteStorages')) return 'every mounted volume needs a mount path.'
  return `the form's field “${field.replace(/^spec\.request\./, '')}” needs fixing first.`
}
