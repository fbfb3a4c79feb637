/**
 * Problems the user should know about that belong to no single action (an unreadable settings
 * file, no keychain, a Sandbox that would not start): logged, announced as a `warning` event for
 * the banner, and listed by `warnings.get`. A warning with the same id replaces the earlier one;
 * one that is over (`clear`) is announced `cleared`, and its banner goes.
 */
import type { Warning } from '../shared/contract'
import type { CoreLog, EventSink } from './core-types'

export class Warnings {
  private readonly list: Warning[] = []

  constructor(
    private readonly emit: EventSink,
    private readonly log?: CoreLog
  ) {}

  readonly warn = (id: string, message: string): void => {
    this.log?.warn(`warning ${id}: ${message}`)
    const existing = this.list.findIndex((w) => w.id === id)
    const warning = { id, message }
    if (existing >= 0) this.list[existing] = warning
    else this.list.push(warning)
    this.emit('warning', warning)
  }

  /** The condition is over: off the list, and the banners are told (`cleared`). */
  readonly clear = (id: string): void => {
    const at = this.list.findIndex((w) => w.id === id)
    if (at < 0) return
    this.list.splice(at, 1)
    this.log?.info(`warning ${id} cleared`)
    this.emit('warning', { id, message: '', cleared: true })
  }

  all(): Warning[] {
    return [...this.list]
  }
}
