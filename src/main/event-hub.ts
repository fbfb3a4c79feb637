/**
 * Where main's events go out: every transport subscribes a sink (Electron IPC, the web shell's
 * WebSocket, tests), and each module emits through one function. A sink that throws does not
 * stop the others, and is never silent: `failed` hears of it (core.ts makes it the "windows"
 * part's failure: logged, counted, shown), because a window that stops hearing about costs
 * without a word is how #21's hostile readings hid.
 */
import type { ClientId, EventSink } from './core-types'
import type { EventName } from '../shared/contract'

export interface EventHubOptions {
  /** A sink threw delivering `event`; the other sinks got it. */
  failed?(event: EventName, error: unknown): void
  /** Every sink took `event` again, after a failure to deliver one of its kind. */
  recovered?(event: EventName): void
}

export class EventHub {
  private readonly sinks = new Set<EventSink>()
  private lostCount = 0
  /** Kinds of event whose last delivery failed somewhere. */
  private readonly failing = new Set<EventName>()

  constructor(private readonly options: EventHubOptions = {}) {}

  /** Sends an event to every sink; `target` set means only that client (terminal bytes). */
  readonly emit: EventSink = (event, payload, target?: ClientId) => {
    let failed = false
    for (const sink of this.sinks) {
      try {
        sink(event, payload, target)
      } catch (error) {
        // One broken transport must not stop the others from hearing about it.
        failed = true
        this.lostCount++
        this.failing.add(event)
        this.tell(() => this.options.failed?.(event, error))
      }
    }
    if (!failed && this.failing.delete(event)) this.tell(() => this.options.recovered?.(event))
  }

  /** Deliveries that failed since start (a sink threw). */
  get lost(): number {
    return this.lostCount
  }

  /** Returns a function that removes the sink. */
  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink)
    return () => this.sinks.delete(sink)
  }

  private tell(action: () => void): void {
    try {
      action()
    } catch {
      // Whoever listens for failures must not become one: an event still went out to the rest.
    }
  }
}
