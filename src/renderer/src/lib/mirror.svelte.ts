/**
 * One piece of main's state as the window last heard it: main sends an event on every change and
 * answers a command that reads it (`balance` and `balance.get`, …). The mirror applies every
 * event, and a command's answer only if no event of its state came while the call was out
 * (AnswerOrder: an answer never rolls the view back past a newer event).
 *
 * Stores keep their own words and actions and hold a mirror for the state itself; which mirrors
 * the window reads, and when (at start, at sign-in, after the web shell reconnects), is the one
 * list in mirrors.ts.
 */
import type { ErrorInfo, EventName, Events, Result } from '../../../shared/contract'
import { AnswerOrder } from './answer-order'
import { on } from './bridge'

/** How an event becomes the mirror's value: needed when the event carries a part (one warning of the list). */
type EventRule<E extends EventName, T> = [Events[E]] extends [T]
  ? { fromEvent?: (payload: Events[E], current: T) => T }
  : { fromEvent: (payload: Events[E], current: T) => T }

export type MirrorOptions<E extends EventName, T> = EventRule<E, T> & {
  /** The event main sends when this state changes. */
  event: E
  /** The command that reads it: `() => call('balance.get')`. */
  read: () => Promise<Result<T>>
  /** What the window shows before anything is read. */
  initial: T
  /**
   * An answer an event overtook is dropped (the event said as much, and newer); where an event
   * carries only a part, the answer's other parts are kept with this.
   */
  keepOvertaken?: (answer: T, current: T) => T
  /** For a state that carries its own time: false keeps the current value (an older one never replaces it). */
  newer?: (incoming: T, current: T) => boolean
  /**
   * What of the current value a new one repeats is kept (the same objects), so views redraw only
   * what changed: main sends each state whole.
   */
  keepUnchanged?: (incoming: T, current: T) => T
  /** Told after each change of the value: a store's own bookkeeping (marks, dialogs, timers). */
  changed?: (value: T, previous: T) => void
}

/** What every mirroring store offers the app: hear main from the start, and read main when told. */
export interface MirrorStore {
  /** Starts hearing main's events; returns a function that stops. */
  listen(): () => void
  /** Reads main's state now. */
  load(): Promise<void>
}

export class Mirror<E extends EventName, T = Events[E]> implements MirrorStore {
  // Raw: main's states are replaced whole, never changed in place.
  value = $state.raw<T>(undefined as T)
  /** Why the last read failed; null once an answer came. */
  error = $state<ErrorInfo | null>(null)
  private readonly order = new AnswerOrder()
  private readonly options: MirrorOptions<E, T>

  constructor(options: MirrorOptions<E, T>) {
    this.options = options
    this.value = options.initial
  }

  listen(): () => void {
    const fromEvent = this.options.fromEvent ?? ((payload: Events[E]) => payload as unknown as T)
    return on(
      this.options.event,
      this.order.event((payload: Events[E]) => this.set(fromEvent(payload, this.value)))
    )
  }

  async load(): Promise<void> {
    const answer = await this.ask(this.options.read)
    if (!answer.ok) this.error = answer.error
  }

  /**
   * A command whose answer is this state (a read, a refresh, a save): applied unless an event
   * came while it was out. The caller decides what a failure means to the user.
   */
  async ask<A extends T>(send: () => Promise<Result<A>>): Promise<Result<A>> {
    const { answer, overtaken } = await this.order.ask(send)
    if (!answer.ok) return answer
    this.error = null
    if (!overtaken) this.set(answer.value)
    else if (this.options.keepOvertaken) this.set(this.options.keepOvertaken(answer.value, this.value))
    return answer
  }

  /** A value main sends no event for (an answer nothing can overtake), or the window's own change. */
  set(value: T): void {
    const previous = this.value
    if (this.options.newer && !this.options.newer(value, previous)) return
    this.value = this.options.keepUnchanged ? this.options.keepUnchanged(value, previous) : value
    if (this.value !== previous) this.options.changed?.(this.value, previous)
  }
}

/**
 * A store whose state is one mirror: hearing main and reading main are its mirror's, said here
 * once. The store declares `protected readonly mirror = new Mirror({...})` and keeps its own
 * words and actions; one that hears more than its mirror (a timer, the OS theme) extends `listen`.
 */
export abstract class MirroredStore implements MirrorStore {
  protected abstract readonly mirror: MirrorStore

  listen(): () => void {
    return this.mirror.listen()
  }

  load(): Promise<void> {
    return this.mirror.load()
  }
}
