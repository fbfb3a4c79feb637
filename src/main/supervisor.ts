/**
 * One part's failure never takes main down (#21). Each part of main (the watcher, the balance,
 * the cost guard and each instance's rules and GPU readings, the tray, SSH, the deliveries of
 * events to the windows) runs its listeners and timers through a Part: a throw is caught and
 * logged (the log redacts secrets; a part failing again and again is logged once a minute), the
 * part is marked unhealthy — the window's banner and a tray line say what is not working, in the
 * user's words — and every other part goes on: the poll, the other instances' rules, terminals.
 * The part is healthy again the next time one of its listeners or timers runs through.
 *
 *   const supervisor = new Supervisor({ log, now, raised, cleared })
 *   const tray = supervisor.part('tray', () => ({ message: 'The tray menu could not be…', short: 'Tray menu out of date' }))
 *   guardMethods(tray, presenter, ['update'])      // presenter.update() never throws again
 *   new Watcher({ clock: watch.clock(clock), … })   // its timers run under its guard
 *   new CostGuard({ events: cost.feed(events), … }) // and its listeners on the hub
 */
import type { Clock, TimerHandle } from '../shared/clock'
import { cutText } from '../shared/untrusted-text'
import type { CoreLog, EventFeed } from './core-types'

/** What the user is told while a part is unhealthy. */
export interface PartWords {
  /** What is not working, what it means and what to do: the window's banner. */
  message: string
  /** A few words for a tray line: "GPU activity for «train» unavailable". */
  short: string
}

/** An unhealthy part, as the window and the tray show it. */
export interface PartProblem extends PartWords {
  partId: string
}

export interface SupervisorOptions {
  log?: Pick<CoreLog, 'error'>
  now(): number
  /** A part became unhealthy (or its message changed). */
  raised?(problem: PartProblem): void
  /** A part is healthy again, or was forgotten. */
  cleared?(partId: string): void
}

/** A part failing again and again is logged at most this often. */
export const REPEAT_LOG_MS = 60_000

export class Supervisor {
  private readonly parts = new Map<string, Part>()
  private readonly unhealthy = new Map<string, PartProblem>()
  private failureCount = 0

  constructor(private readonly options: SupervisorOptions) {}

  /**
   * The part with this id (made on first use; its words are the first ones given). `words` says
   * what the user meets while it is unhealthy, e.g. "GPU activity for «train» is unavailable: the
   * instance sent readings we cannot use."
   */
  part(partId: string, words: (error: unknown) => PartWords): Part {
    let part = this.parts.get(partId)
    if (!part) this.parts.set(partId, (part = new Part(this, partId, words)))
    return part
  }

  /** The part is gone (its instance stopped): it is neither watched nor shown any more. */
  forget(partId: string): void {
    this.parts.delete(partId)
    if (this.unhealthy.delete(partId)) this.options.cleared?.(partId)
  }

  problems(): PartProblem[] {
    return [...this.unhealthy.values()]
  }

  /** Throws caught since start, across every part. */
  get failures(): number {
    return this.failureCount
  }

  /** @internal A part's throw: logged (not too often), counted, shown. */
  failed(part: Part, error: unknown, words: PartWords): void {
    this.failureCount++
    const now = this.options.now()
    if (part.loggedAt === undefined || now - part.loggedAt >= REPEAT_LOG_MS) {
      this.options.log?.error(`${part.partId} failed; it is marked unhealthy and everything else goes on`, {
        error: errorData(error),
        ...(part.unlogged > 0 ? { repeatsNotLogged: part.unlogged } : {})
      })
      part.loggedAt = now
      part.unlogged = 0
    } else part.unlogged++
    const before = this.unhealthy.get(part.partId)
    if ((before?.message === words.message && before.short === words.short) || this.parts.get(part.partId) !== part) return
    const problem = { partId: part.partId, ...words }
    this.unhealthy.set(part.partId, problem)
    this.tell(() => this.options.raised?.(problem))
  }

  /** @internal A part ran through. */
  recovered(part: Part): void {
    if (this.unhealthy.delete(part.partId)) this.tell(() => this.options.cleared?.(part.partId))
  }

  /**
   * Telling must not fail the part that is being told about, nor recurse into it: what is told
   * while telling (the tray failing as it shows a problem) waits its turn.
   */
  private telling = false
  private readonly toTell: (() => void)[] = []
  private tell(action: () => void): void {
    this.toTell.push(action)
    if (this.telling) return
    this.telling = true
    try {
      for (let next = this.toTell.shift(); next; next = this.toTell.shift()) {
        try {
          next()
        } catch (error) {
          this.options.log?.error('could not show a part’s health', { error: errorData(error) })
        }
      }
    } finally {
      this.telling = false
    }
  }
}

export class Part {
  /** @internal */ loggedAt: number | undefined
  /** @internal */ unlogged = 0

  constructor(
    private readonly supervisor: Supervisor,
    readonly partId: string,
    private readonly words: (error: unknown) => PartWords
  ) {}

  /**
   * Runs `work` under this part's guard: a throw (or, when it returns a promise, a rejection) is
   * caught and marks the part unhealthy; undefined is answered in its place. Running through
   * marks it healthy.
   */
  run<T>(work: () => T): T | undefined {
    let result: T
    try {
      result = work()
    } catch (error) {
      this.fail(error)
      return undefined
    }
    if (isThenable(result)) {
      return result.then(
        (value) => {
          this.ok()
          return value
        },
        (error: unknown) => {
          this.fail(error)
          return undefined
        }
      ) as T
    }
    this.ok()
    return result
  }

  /** `listener`, run under this part's guard: it never throws to whoever calls it. */
  listener<A extends unknown[]>(listener: (...args: A) => unknown): (...args: A) => void {
    return (...args: A) => void this.run(() => listener(...args))
  }

  /** The hub as this part hears it: each of its listeners runs under this part's guard. */
  feed(events: EventFeed): EventFeed {
    return { on: (event, listener) => events.on(event, this.listener(listener)) }
  }

  /** `clock`, with every timer callback run under this part's guard. */
  clock(clock: Clock): Clock {
    return {
      now: () => clock.now(),
      setTimeout: (callback: () => void, ms: number): TimerHandle => clock.setTimeout(this.listener(callback), ms),
      clearTimeout: (handle) => clock.clearTimeout(handle)
    }
  }

  /** Marks the part unhealthy for `error` (logged; shown with the part's words). */
  fail(error: unknown): void {
    let words: PartWords
    try {
      words = this.words(error)
    } catch {
      words = {
        message: `Part of Cloud Tray (${this.partId}) is not working right now. Everything else goes on; restarting Cloud Tray may help.`,
        short: `Part of Cloud Tray is not working (${this.partId})`
      }
    }
    this.supervisor.failed(this, error, words)
  }

  /** The part works again. */
  ok(): void {
    this.supervisor.recovered(this)
  }
}

/**
 * Runs each named method of `target` under `part` from now on: the listeners other parts call
 * (`tray.update()` after a snapshot) never throw into their caller. Their results are kept;
 * a failed call answers undefined.
 */
export function guardMethods<T extends object, K extends MethodKeys<T>>(part: Part, target: T, methods: readonly K[]): T {
  for (const name of methods) {
    const method = target[name] as (...args: unknown[]) => unknown
    const bound = method.bind(target)
    ;(target as Record<K, unknown>)[name] = (...args: unknown[]) => part.run(() => bound(...args))
  }
  return target
}

type MethodKeys<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T]

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
}

/** What the log keeps of a thrown value: its name, message and stack, each bounded (the logger redacts secrets). */
export function errorData(error: unknown): { name: string; message: string; stack?: string } {
  if (error instanceof Error) {
    return {
      name: cutText(error.name, 100),
      message: cutText(error.message, 1_000),
      ...(error.stack ? { stack: cutText(error.stack, 4_000) } : {})
    }
  }
  let text: string
  try {
    text = String(error)
  } catch {
    text = 'an unprintable value'
  }
  return { name: typeof error, message: cutText(text, 1_000) }
}
