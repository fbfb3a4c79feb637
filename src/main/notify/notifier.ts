/**
 * The app's notifications: each gets an id and goes to the desktop (the platform). It follows
 * the hub: transitions become notifications by the policy (policy.ts), the session's 10-minute
 * warning one too, and a sign-out forgets this app's own actions. The window needs none: it
 * shows every status change in place (the `transitions` event). It keeps the record of this
 * app's own actions, so a stop the user clicked here is not announced as news when the watcher
 * sees it happen; a spot instance's stop that this app did not ask for is a reclaim, told on the
 * hub (`reclaimed`) for the availability part to say and relaunch.
 */
import type { AppNotification, NotificationKind, Settings, StuckStart, Transition } from '../../shared/contract'
import type { Clock } from '../../shared/clock'
import type { EventFeed, EventSink, Platform } from '../core-types'
import { expiringNotification, lowBalanceNotification, notificationsFor, stuckNotification } from './policy'

/** What this app itself asks the cloud to do to an instance. */
export type OwnAction = 'create' | 'stop' | 'terminate'

export interface NotifierOptions {
  platform: Pick<Platform, 'showNotification'>
  /** Which kinds the user wants: `notifications` of the settings. */
  settings: { get(): Settings }
  clock: Pick<Clock, 'now'>
  /** The hub: `transitions`, `session.expiring`, `session`. */
  events: EventFeed
  /** The hub: `reclaimed` when spot instances stopped without this app asking. */
  emit: EventSink
}

export class Notifier {
  private counter = 0
  private readonly own = { stopping: new Set<string>(), terminating: new Set<string>(), created: new Set<string>() }

  constructor(private readonly options: NotifierOptions) {
    const { events } = options
    events.on('transitions', (transitions) => this.transitions(transitions))
    events.on('session.expiring', ({ expiresAt }) => this.sessionExpiring(expiresAt))
    events.on('session', (state) => {
      // The next session's news is its own.
      if (state.status === 'signed-out') this.forgetOwnActions()
    })
  }

  /** A fresh id, unique for this run. */
  readonly id = (kind: NotificationKind, instanceId?: string): string => `${kind}-${instanceId ?? 'all'}-${++this.counter}`

  deliver(notification: AppNotification): void {
    try {
      this.options.platform.showNotification(notification)
    } catch {
      // A desktop without a notification service: the window's toasts still tell (instances.svelte.ts).
    }
  }

  /** The session ends at `expiresAt` (the 10-minute warning). */
  private sessionExpiring(expiresAt: number): void {
    const minutes = Math.max(1, Math.round((expiresAt - this.options.clock.now()) / 60_000))
    this.deliver(expiringNotification(this.id('expiring'), minutes))
  }

  /** What the watcher saw change: news is delivered, this app's own settled actions forgotten. */
  private transitions(transitions: readonly Transition[]): void {
    const result = notificationsFor(transitions, this.own, this.options.settings.get().notifications, this.id)
    for (const id of result.settled.stopping) this.own.stopping.delete(id)
    for (const id of result.settled.terminating) this.own.terminating.delete(id)
    for (const id of result.settled.created) this.own.created.delete(id)
    for (const notification of result.notifications) this.deliver(notification)
    if (result.reclaimed.length > 0) this.options.emit('reclaimed', result.reclaimed)
  }

  /** Starts the watcher found stuck (each once per episode): what the cloud reports and what to do. */
  stuck(starts: readonly StuckStart[]): void {
    if (!this.options.settings.get().notifications.stuck) return
    for (const start of starts) this.deliver(stuckNotification(this.id('stuck', start.instanceId), start, this.options.clock.now()))
  }

  /** The available balance fell below the user's threshold (the balance model says so once per dip). */
  lowBalance(available: number, threshold: number, sandbox = false): void {
    this.deliver(lowBalanceNotification(this.id('low-balance'), available, threshold, sandbox))
  }

  /** Records an action this app took, so its outcome is not announced as news. */
  noteOwnAction(action: OwnAction, instanceId: string): void {
    this.setOf(action).add(instanceId)
  }

  /** Forgets a noted action whose request failed. */
  forgetOwnAction(action: OwnAction, instanceId: string): void {
    this.setOf(action).delete(instanceId)
  }

  private forgetOwnActions(): void {
    this.own.stopping.clear()
    this.own.terminating.clear()
    this.own.created.clear()
  }

  private setOf(action: OwnAction): Set<string> {
    return action === 'stop' ? this.own.stopping : action === 'terminate' ? this.own.terminating : this.own.created
  }
}
