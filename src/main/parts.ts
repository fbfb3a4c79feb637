/**
 * Main's parts as supervisor.ts guards them, and what the user is told while one is unhealthy:
 * what stopped working, that the rest goes on, and what to do. The cost guard's per-instance
 * parts (its rules, its GPU readings) name themselves (cost/cost-guard.ts).
 */
import type { EventName } from '../shared/contract'
import type { Clock } from '../shared/clock'
import type { CoreLog, EventFeed, EventSink } from './core-types'
import type { EventHub } from './event-hub'
import { guardMethods, Supervisor, type Part, type PartWords } from './supervisor'
import type { Warnings } from './warnings'

const DETAILS = 'The details are in the log; everything else goes on.'

const words = (message: string, short: string) => (): PartWords => ({ message: `${message} ${DETAILS}`, short })

/** What a window hears of, by event, for the sentence about an update it missed. */
const EVENT_WORDS: Partial<Record<EventName, string>> = {
  instances: 'instance list',
  cost: 'cost figures',
  balance: 'balance',
  tunnels: 'port tunnels',
  catalog: 'catalog'
}

export interface MainParts {
  watch: Part
  account: Part
  balance: Part
  catalog: Part
  cost: Part
  notify: Part
  tray: Part
  ssh: Part
  jobs: Part
  templates: Part
  availability: Part
  update: Part
  /** Delivering one kind of event to the windows. */
  window(event: EventName): Part
}

export function mainParts(supervisor: Supervisor): MainParts {
  return {
    watch: supervisor.part(
      'watch',
      words(
        'Cloud Tray could not bring your instance list up to date after an internal error. It tries again at the next poll; use Refresh, or restart Cloud Tray if it stays.',
        'Instance list may be out of date'
      )
    ),
    account: supervisor.part(
      'account',
      words('Your session hit an internal error. If signing in or out does not work, restart Cloud Tray.', 'Session hit an error')
    ),
    balance: supervisor.part(
      'balance',
      words(
        'Your balance could not be brought up to date after an internal error. It is read again every minute.',
        'Balance may be out of date'
      )
    ),
    catalog: supervisor.part(
      'catalog',
      words(
        'The list of instance types could not be read after an internal error. The create form uses what it had; try again later.',
        'Instance types may be out of date'
      )
    ),
    cost: supervisor.part(
      'cost',
      words(
        'The cost guard hit an internal error, so its rules may not act until it recovers. Keep an eye on running instances, or stop them by hand.',
        'Cost guard hit an error'
      )
    ),
    notify: supervisor.part(
      'notify',
      words(
        'A notification could not be shown after an internal error. The window still shows what happened.',
        'A notification was not shown'
      )
    ),
    tray: supervisor.part(
      'tray',
      words(
        'The tray menu could not be brought up to date after an internal error. The window shows everything; restarting Cloud Tray may help.',
        'Tray menu out of date'
      )
    ),
    ssh: supervisor.part(
      'ssh',
      words(
        'Terminals, port tunnels or the files panel hit an internal error. Those already open go on; if one stops answering, close and open it again.',
        'Terminals or tunnels hit an error'
      )
    ),
    jobs: supervisor.part(
      'jobs',
      words(
        'Watching your jobs hit an internal error, so the end of one may not be told. Open the instance’s details to see its jobs.',
        'Jobs may not be watched'
      )
    ),
    templates: supervisor.part(
      'templates',
      words(
        'Your launch templates hit an internal error, so the list may be out of date. Those saved on disk are kept; restarting Cloud Tray may help.',
        'Launch templates hit an error'
      )
    ),
    availability: supervisor.part(
      'availability',
      words(
        'Waiting for stock hit an internal error, so a GPU coming into stock may go unnoticed until it recovers. Check the catalog in the create form, or restart Cloud Tray.',
        'Stock watch hit an error'
      )
    ),
    update: supervisor.part(
      'update',
      words(
        'Checking for updates hit an internal error, so a new version may not be found or installed. Cloud Tray goes on as it is; restarting it checks again.',
        'Update check hit an error'
      )
    ),
    window(event) {
      const what = EVENT_WORDS[event] ?? 'updates'
      return supervisor.part(
        `window:${event}`,
        words(
          `The window could not be sent the latest ${what}, so what it shows may be out of date. Close and open the window to read everything again.`,
          `Window missed the latest ${what}`
        )
      )
    }
  }
}

/**
 * Main's supervision, set up once in core.ts: an unhealthy part is a `part:<id>` warning (the
 * window's banner; the tray follows `warning` and lists `problems()`), and a transport that could
 * not take an event is the failure of that event's "window" part.
 */
export function superviseMain(main: { log?: CoreLog | undefined; clock: Clock; events: EventHub; warnings: Warnings }): {
  supervisor: Supervisor
  parts: MainParts
  /** What a part is built with to run under its guard: its clock, its view of the hub, the hub's emit, and the log. */
  under(part: Part): { clock: Clock; events: EventFeed; emit: EventSink; log?: CoreLog }
} {
  const { warnings, clock } = main
  const supervisor = new Supervisor({
    ...(main.log ? { log: main.log } : {}),
    now: () => clock.now(),
    raised: (problem) => warnings.warn(`part:${problem.partId}`, problem.message),
    cleared: (partId) => warnings.clear(`part:${partId}`)
  })
  const parts = mainParts(supervisor)
  main.events.report({ failed: (event, error) => parts.window(event).fail(error), recovered: (event) => parts.window(event).ok() })
  return {
    supervisor,
    parts,
    under: (part) => ({
      clock: part.clock(clock),
      events: part.feed(main.events),
      emit: main.events.emit,
      ...(main.log ? { log: main.log } : {})
    })
  }
}

type Calls<T> = { [K in keyof T]?: unknown }

/**
 * What one part calls on another directly (the account telling the watcher a session began, the
 * watcher telling the notifier of a stuck start, a shell's wake-up) runs under the callee's guard:
 * a throw there is the callee's failure, never its caller's.
 */
export function guardCalls(
  parts: MainParts,
  main: {
    watcher: Calls<{ started: 1; ending: 1; expired: 1; onSystemEvent: 1 }>
    balance: Calls<{ started: 1; ending: 1; expired: 1 }>
    catalog: Calls<{ started: 1 }>
    notifier: Calls<{ stuck: 1; lowBalance: 1 }>
    wing: Calls<{ onSystemEvent: 1; clientGone: 1 }>
    availability: Calls<{ started: 1; ending: 1; expired: 1; onSystemEvent: 1 }>
  }
): void {
  guardMethods(parts.watch, main.watcher, ['started', 'ending', 'expired', 'onSystemEvent'] as never[])
  guardMethods(parts.balance, main.balance, ['started', 'ending', 'expired'] as never[])
  guardMethods(parts.catalog, main.catalog, ['started'] as never[])
  guardMethods(parts.notify, main.notifier, ['stuck', 'lowBalance'] as never[])
  guardMethods(parts.ssh, main.wing, ['onSystemEvent', 'clientGone'] as never[])
  guardMethods(parts.availability, main.availability, ['started', 'ending', 'expired', 'onSystemEvent'] as never[])
}
