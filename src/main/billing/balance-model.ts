/**
 * The account's balance, as main knows it: read with GET /balance when a session starts, then
 * every minute while signed in, and on demand. It keeps the latest answer (or why it could not
 * be read), tells the hub (`balance`: the windows, the tray, the cost guard) when it changes, and warns once
 * each time an account's available balance falls below the user's threshold: once per dip, not
 * at every sign-in or start (low-balance-memory.ts); re-armed once it is back at or above it, or
 * the threshold changes.
 *
 * The one place the app's money comes from: the window, the tray and the cost guard read it
 * here (`snapshot()`, the `balance` event), never asking the cloud themselves.
 */
import type { Balance } from '../../shared/balance'
import { availableOf, spendableOf } from '../../shared/balance'
import type { Clock, TimerHandle } from '../../shared/clock'
import type { BalanceSnapshot, ErrorInfo } from '../../shared/contract'
import type { EventSink } from '../core-types'
import type { LowBalanceMemory } from './low-balance-memory'

/** The balance moves with usage over minutes; once a minute keeps the tray current and the API unbothered. */
export const BALANCE_INTERVAL_MS = 60_000

export interface BalanceModelOptions {
  clock: Clock
  /** GET /balance on the session's cloud. */
  fetch(): Promise<Balance>
  toErrorInfo(error: unknown): ErrorInfo
  /** The user's warning level in dollars; null: never warn. */
  threshold(): number | null
  /** The available balance fell below the threshold. */
  low(available: number, threshold: number): void
  /** Whose balance it is (`profileId/username`): a dip is warned once per account. */
  account(): string | undefined
  /** Which accounts were warned for the dip they are in (kept across sign-ins and restarts). */
  warned: Pick<LowBalanceMemory, 'has' | 'add' | 'delete' | 'clear' | 'load' | 'flushed'>
  /** The hub: `balance` on every change. */
  emit: EventSink
  intervalMs?: number
}

export class BalanceModel {
  private current: BalanceSnapshot = { balance: null, fetchedAt: null }
  private timer: TimerHandle | undefined
  private inFlight: Promise<void> | undefined
  /** Bumped when the session changes: an answer for the old one is dropped. */
  private generation = 0
  private active = false

  constructor(private readonly options: BalanceModelOptions) {}

  snapshot(): BalanceSnapshot {
    return this.current
  }

  /** Reads which accounts were already warned for their dip (at start, before the first read). */
  load(): Promise<void> {
    return this.options.warned.load()
  }

  /** Resolves once the warned accounts are on disk (Quit waits for it). */
  flushed(): Promise<void> {
    return this.options.warned.flushed()
  }

  /** Dollars that can be spent now (the cost guard's runway), when the account reports a balance. */
  spendable(): number | undefined {
    return this.current.balance ? spendableOf(this.current.balance) : undefined
  }

  /** A session began: read now, then every interval (account.listen). */
  started(): void {
    this.generation++
    this.active = true
    void this.refresh()
  }

  /** Signing out: stop reading, and forget the amount. */
  ending(): void {
    this.end(true)
  }

  /** The session expired: stop reading; the last amount stays, said to be from then. */
  expired(): void {
    this.end(false)
  }

  private end(forget: boolean): void {
    this.generation++
    this.active = false
    this.options.clock.clearTimeout(this.timer)
    this.timer = undefined
    if (forget) this.set({ balance: null, fetchedAt: null })
  }

  /** The user changed the threshold: judge the balance against the new one. */
  thresholdChanged(): void {
    this.options.warned.clear()
    this.judge()
  }

  /** Reads the balance now; resolves once that read (or the one already running) is done. */
  refresh(): Promise<void> {
    if (!this.active) return Promise.resolve()
    this.inFlight ??= this.read().finally(() => {
      this.inFlight = undefined
    })
    return this.inFlight
  }

  stop(): void {
    this.end(false)
  }

  private async read(): Promise<void> {
    const generation = this.generation
    this.options.clock.clearTimeout(this.timer)
    this.timer = undefined
    let next: BalanceSnapshot
    try {
      const balance = await this.options.fetch()
      next = { balance, fetchedAt: this.options.clock.now() }
    } catch (error) {
      // The last amount stays on screen, said to be from then; the error says why it is not newer.
      next = { ...this.current, error: this.options.toErrorInfo(error) }
    }
    if (generation !== this.generation || !this.active) return
    this.set(next)
    this.judge()
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined
      void this.refresh()
    }, this.options.intervalMs ?? BALANCE_INTERVAL_MS)
  }

  private judge(): void {
    const balance = this.current.balance
    const threshold = this.options.threshold()
    const account = this.options.account()
    if (!balance || threshold === null || account === undefined) return
    const available = availableOf(balance)
    const { warned } = this.options
    if (available >= threshold) {
      warned.delete(account)
      return
    }
    if (warned.has(account)) return
    warned.add(account)
    this.options.low(available, threshold)
  }

  private set(next: BalanceSnapshot): void {
    if (JSON.stringify(next) === JSON.stringify(this.current)) return
    this.current = next
    this.options.emit('balance', next)
  }
}
