/**
 * Main's parts as supervisor.ts guards them, and what the user is told while one is unhealthy:
 * what stopped working, that the rest goes on, and what to do. The cost guard's per-instance
 * parts (its rules, its GPU readings) name themselves (cost/cost-guard.ts).
 */
import type { EventName } from '../shared/contract'
import type { Part, PartWords, Supervisor } from './supervisor'

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
