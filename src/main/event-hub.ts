/**
 * Where main's events go out: every transport subscribes a sink (Electron IPC, the web shell's
 * WebSocket, tests), and each module emits through one function. A sink that throws does not
 * stop the others.
 */
import type { ClientId, EventSink } from './core-types'

export class EventHub {
  private readonly sinks = new Set<EventSink>()

  /** Sends an event to every sink; `target` set means only that client (terminal bytes). */
  readonly emit: EventSink = (event, payload, target?: ClientId) => {
    for (const sink of this.sinks) {
      try {
        sink(event, payload, target)
      } catch {
        // One broken transport must not stop the others from hearing about it.
      }
    }
  }

  /** Returns a function that removes the sink. */
  subscribe(sink: EventSink): () => void {
    this.sinks.add(sink)
    return () => this.sinks.delete(sink)
  }
}
