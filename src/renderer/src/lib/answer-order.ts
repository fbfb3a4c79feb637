/**
 * Which word on a piece of state is the newest, when main both answers calls about it
 * (`balance.get`, `instances.refresh`, …) and sends events when it changes (`balance`, …).
 *
 * Main answers a call with the state of that moment and sends both in order, but a call resolves
 * a microtask after its answer is read, while an event in the same chunk is applied at once: an
 * answer made before a change can land after the event that carried the change, and roll the
 * view back until the next event (a minute, for the balance). So events are always applied, and
 * an answer only if no event of its state came while the call was out. Dropping such an answer
 * loses nothing: main sends an event for every change, so the event already said as much.
 */
export class AnswerOrder {
  private events = 0

  /** Wraps an event listener of this state: its arrival outdates every answer still out. */
  event<T>(listener: (payload: T) => void): (payload: T) => void {
    return (payload) => {
      this.events++
      listener(payload)
    }
  }

  /** Makes a call about this state; `overtaken` when an event came before its answer did. */
  async ask<T>(send: () => Promise<T>): Promise<{ answer: T; overtaken: boolean }> {
    const before = this.events
    const answer = await send()
    return { answer, overtaken: this.events !== before }
  }
}
