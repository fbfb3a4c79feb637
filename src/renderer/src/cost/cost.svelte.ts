/**
 * The cost guard as main last reported it (the `cost` event), with figures kept live between
 * reports: cost so far and uptime grow with the time passed since main made the snapshot,
 * and a countdown counts down, on a one-second tick. Main's clock is the reference (tests drive
 * it), so the window adds only the time since the snapshot arrived.
 *
 * In the web shell the guard's notifications (reminder, countdown, the stop and why) are toasts
 * carrying their choices as buttons (announcements.ts hands them to `announce`); in Electron the OS shows them, and the window shows the
 * countdown banners (App.svelte) and the instance's cost panel with the same buttons.
 */
import type { AppNotification, NotificationAction, Result } from '../../../shared/contract'
import type { CostSnapshot, Countdown, GuardInstance, GuardRules } from '../../../shared/contract-cost'
import { call } from '../lib/bridge'
import { Mirror, MirroredStore } from '../lib/mirror.svelte'
import { instances } from '../instances/instances.svelte'
import { toasts, type ToastTone } from '../lib/toasts.svelte'

const HOUR_MS = 3_600_000

/** The cost guard's notifications: they carry choices, so the cost store shows them (announce). */
export const GUARD_KINDS = ['reminder', 'countdown', 'auto-stop', 'plan-ending'] as const
export type GuardKind = (typeof GUARD_KINDS)[number]

class CostStore extends MirroredStore {
  protected readonly mirror = new Mirror({
    event: 'cost',
    read: () => call('cost.get'),
    initial: null as CostSnapshot | null,
    // Each snapshot carries main's time: an older one never replaces a newer.
    newer: (next, current) => !current || !next || next.at >= current.at,
    changed: (snapshot) => {
      if (snapshot) this.arrived(snapshot)
    }
  })
  /** Local time the snapshot arrived; with `tick`, how far main's clock has moved since. */
  private receivedAt = $state(Date.now())
  tick = $state(Date.now())
  /** The toast showing each instance's countdown, removed when the countdown ends. */
  private countdownToasts = new Map<string, number>()

  get snapshot(): CostSnapshot | null {
    return this.mirror.value
  }

  byId = $derived(new Map((this.snapshot?.instances ?? []).map((entry) => [entry.instanceId, entry])))
  /** The stops the guard made, by instance: the details say the guard stopped it, not "at your request". */
  stopsById = $derived(new Map((this.snapshot?.stops ?? []).map((stop) => [stop.instanceId, stop])))
  countdowns = $derived((this.snapshot?.instances ?? []).filter((entry) => entry.countdown !== undefined))

  override listen(): () => void {
    const timer = setInterval(() => (this.tick = Date.now()), 1000)
    const off = super.listen()
    return () => {
      clearInterval(timer)
      off()
    }
  }

  /** Main's clock now, as far as the window can tell. */
  mainNow(): number {
    return (this.snapshot?.at ?? this.tick) + Math.max(0, this.tick - this.receivedAt)
  }

  /** Cost so far, grown since the snapshot (a plan never past what it committed). */
  liveCost(entry: GuardInstance): number {
    const grown = entry.meter.costSoFar + (entry.meter.hourlyRate * (this.mainNow() - (this.snapshot?.at ?? this.mainNow()))) / HOUR_MS
    return entry.meter.plan ? Math.min(grown, entry.meter.plan.committed) : grown
  }

  liveUptime(entry: GuardInstance): number {
    return Math.max(0, this.mainNow() - entry.meter.runStartedAt)
  }

  /** Milliseconds left on a countdown (0 once it has run out). */
  remaining(countdown: Countdown): number {
    return Math.max(0, countdown.endsAt - this.mainNow())
  }

  setRules(instanceId: string, rules: GuardRules): Promise<Result<CostSnapshot>> {
    return this.mirror.ask(() => call('cost.setRules', { instanceId, rules }))
  }

  async keepRunning(instanceId: string): Promise<void> {
    const result = await this.mirror.ask(() => call('cost.keepRunning', { instanceId }))
    if (!result.ok) toasts.show('error', 'Could not keep it running', result.error.message)
  }

  /** "Stop now": the Stop button's own path (the row shows Stopping… at once). */
  async stopNow(instanceId: string): Promise<void> {
    const instance = instances.byId.get(instanceId)
    if (instance) await instances.stop(instance)
    else {
      const result = await call('instances.stop', { instanceId })
      if (!result.ok) toasts.show('error', 'Could not stop the instance', result.error.message)
    }
  }

  /** A newer snapshot: live figures count from now, and countdowns that ended lose their toast. */
  private arrived(snapshot: CostSnapshot): void {
    this.receivedAt = Date.now()
    this.tick = this.receivedAt
    for (const [instanceId, toastId] of this.countdownToasts) {
      if (!snapshot.instances.some((entry) => entry.instanceId === instanceId && entry.countdown)) {
        toasts.dismiss(toastId)
        this.countdownToasts.delete(instanceId)
      }
    }
  }

  /**
   * One of the guard's notifications in the web shell (announcements.ts hands them here): a toast
   * with its choices as buttons; a new one for the instance replaces its countdown's.
   */
  announce(notification: AppNotification): void {
    const instanceId = notification.instanceId
    const actions = (notification.actions ?? []).flatMap((action: NotificationAction) =>
      instanceId
        ? [{ label: action.label, run: () => (action.id === 'stop-now' ? this.stopNow(instanceId) : this.keepRunning(instanceId)) }]
        : []
    )
    const tone: ToastTone = notification.kind === 'auto-stop' ? (notification.actions ? 'error' : 'info') : 'warning'
    if (instanceId) {
      const previous = this.countdownToasts.get(instanceId)
      if (previous !== undefined) toasts.dismiss(previous)
      this.countdownToasts.delete(instanceId)
    }
    const id = toasts.show(tone, notification.title, notification.body, { actions })
    if (instanceId && notification.kind === 'countdown' && actions.length > 0) this.countdownToasts.set(instanceId, id)
  }
}

export const cost = new CostStore()
