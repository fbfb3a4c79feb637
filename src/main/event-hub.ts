/**
 * Where main's events go, synchronously. Two kinds of subscriber:
 * - transports (`subscribe`): Electron IPC, the web shell's WebSocket, tests; they hear every
 *   event, and pass it to the windows (`target` set: only that client, e.g. terminal bytes);
 * - main's own parts (`on`): each follows the events it shows or acts on (the SSH wing, the cost
 *   guard and the tray hear the instance list, the session, the balance…), so nobody has to ring
 *   them after a change.
 *
 * The order is decided, not incidental: transports first, then the parts in the order they began
 * to listen (their construction order in core.ts: the notifier, the SSH wing, the templates, the
 * availability watch, the cost guard, the updater, the tray). Windows
 * therefore hear a fact before any consequence a part emits while handling it (the guard's `cost`
 * after the `instances` that caused it, a link's `ssh.status` after the list that ended it), and
 * a slow or failing part can neither delay nor hide a fact from them. Among the parts, the wing
 * ends the links of stopped instances before the guard probes, the launch book records a create
 * before the availability watch ends the watch it answered, and the tray redraws last, from what
 * the others have already updated.
 *
 * A subscriber that throws is logged and does not stop the others from hearing the event. A
 * transport that throws is never silent either: `failed` hears of it (core.ts makes it the
 * "windows" part's failure: logged, counted, shown), because a window that stops hearing about
 * costs without a word is how #21's hostile readings hid. A part's own listeners run under that
 * part's guard (supervisor.ts `Part.feed`), so its failure is its own, shown the same way.
 */
import type { ClientId, CoreLog, EventFeed, EventSink } from './core-types'
import type { EventName, Events } from '../shared/contract'

type Listener = (payload: never) => void

export interface DeliveryReports {
  /** A transport threw delivering `event`; the other transports got it. */
  failed?(event: EventName, error: unknown): void
  /** Every transport took `event` again, after a failure to deliver one of its kind. */
  recovered?(event: EventName): void
}

export class EventHub implements EventFeed {
  private readonly sinks = new Set<EventSink>()
  private readonly listeners = new Map<EventName, Set<Listener>>()
  private lostCount = 0
  /** Kinds of event whose last delivery to a transport failed. */
  private readonly failing = new Set<EventName>()

  private reports: DeliveryReports = {}

  constructor(private readonly log?: Pick<CoreLog, 'error'>) {}

  /** Who hears of deliveries to a transport that failed, and of their recovery (core.ts: the supervisor). */
  report(reports: DeliveryReports): void {
    this.reports = reports
  }

  /** Sends an event to every transport, then to the parts that follow it. */
  readonly emit: EventSink = (event, payload, target?: ClientId) => {
    let lost = false
    for (const sink of this.sinks) {
      try {
        sink(event, payload, target)
      } catch (error) {
        // One broken transport must not stop the others from hearing about it.
        lost = true
        this.lostCount++
        this.failing.add(event)
        this.logged('a transport', event, error)
        this.tell(() => this.reports.failed?.(event, error))
      }
    }
    if (!lost && this.failing.delete(event)) this.tell(() => this.reports.recovered?.(event))
    const listeners = this.listeners.get(event)
    if (!listeners) return
    for (const listener of listeners) {
      try {
        ;(listener as (payload: Events[typeof event]) => void)(payload)
      } catch (error) {
        this.logged('a part of main', event, error)
      }
    }
  }

  /** Deliveries to a transport that failed since start. */
  get lost(): number {
    return this.lostCount
  }

  /** A transport: hears every event. Returns a function that removes it. */
  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink)
    return () => this.sinks.delete(sink)
  }

  /** A part of main: hears `event` after the transports. Returns a function that stops it. */
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    let listeners = this.listeners.get(event)
    if (!listeners) this.listeners.set(event, (listeners = new Set()))
    const added = listener as Listener
    listeners.add(added)
    return () => listeners.delete(added)
  }

  private logged(who: string, event: EventName, error: unknown): void {
    this.tell(() => this.log?.error(`${who} failed on the ${event} event`, { error: error instanceof Error ? error.stack : String(error) }))
  }

  private tell(action: () => void): void {
    try {
      action()
    } catch {
      // Whoever listens for failures (or a log that cannot write) must not become one.
    }
  }
}
