/**
 * The tray menu, as a second view of main's events: it hears on the hub everything the menu
 * shows (the profiles and the session, the instance list, the watcher's health, the balance, the
 * cost guard, the settings, the port tunnels, the availability watches, the templates), recomputes the model (tray-model.ts) and, only
 * when it differs, hands it to the platform's tray. The first menu comes with the account's
 * `profiles` at start, once the saved settings and profiles are read; nobody rings it. A part of
 * main that stopped working (supervisor.ts) is a line at the top: the menu follows its `warning`.
 *
 * On each event it reads the parts' current state rather than keeping the payloads: an event can
 * be told inside another (the guard's `cost` inside the `instances` that caused it), and reading
 * the parts then gives one consistent menu, not half of the old and half of the new.
 */
import type { UpdateState } from '../../shared/contract-update'
import type { BalanceSnapshot, EventName, InstancesSnapshot, SessionState, Settings, TrayModel, WatchHealth } from '../../shared/contract'
import type { CostSnapshot } from '../../shared/contract-cost'
import type { EventFeed, Platform } from '../core-types'
import { trayModel, type TrayContext } from './tray-model'

/** What the menu shows, by the events that say it changed. */
export const TRAY_EVENTS = [
  'profiles',
  'session',
  'instances',
  'watch.health',
  'balance',
  'cost',
  'settings',
  'tunnels',
  'update',
  'availability',
  'templates',
  // A part of main unhealthy or well again (supervisor.ts raises and clears a `part:` warning).
  'warning'
] as const satisfies readonly EventName[]

export interface TrayPresenterOptions {
  /** The hub: the menu follows TRAY_EVENTS. */
  events: EventFeed
  /** The account: the session, and its profile's name for the status line. */
  account: { state(): SessionState; profileName(): string }
  /** The watcher's snapshot. */
  watcher: { snapshot(): InstancesSnapshot }
  settings: { get(): Settings }
  /** The balance model's latest read, for the menu's balance line. */
  balance?: { snapshot(): BalanceSnapshot }
  /** The cost guard: burn rate, GPU activity, rules and countdowns. */
  guard?: { snapshot(): CostSnapshot }
  /** The port tunnels (ssh/tunnels/tunnel-manager.ts), listed in their instance's submenu. */
  tunnels?: { list(): NonNullable<TrayContext['tunnels']> }
  /** Getting the GPU: the availability watches (availability/availability.ts) and the launch templates (templates/templates.ts). */
  launch?: {
    availability: { snapshot(): { watches: NonNullable<TrayContext['watches']> } }
    templates: { list(): NonNullable<TrayContext['templates']> }
  }
  /** Parts of main that are not working (supervisor.ts), each a line at the top of the menu. */
  problems?: () => TrayContext['problems']
  platform: Pick<Platform, 'setTray'>
  /** The updater's state: a downloaded update adds "Restart to update". */
  updates?: { snapshot(): UpdateState }
}

export class TrayPresenter {
  /** Said only as an event (the watcher keeps no health to read). */
  private health: WatchHealth = { state: 'ok' }
  private last = ''
  private current: TrayModel | undefined

  constructor(private readonly options: TrayPresenterOptions) {
    options.events.on('watch.health', (health) => void (this.health = health))
    for (const event of TRAY_EVENTS) options.events.on(event, () => this.update())
  }

  /** The menu as it stands: what `tray.activate` checks an item against. */
  model(): TrayModel {
    if (!this.current) this.update()
    return this.current!
  }

  private update(): void {
    const { options } = this
    const model = trayModel(options.account.state(), options.watcher.snapshot(), options.settings.get(), {
      health: this.health,
      profileName: options.account.profileName(),
      ...(options.balance ? { balance: options.balance.snapshot() } : {}),
      ...(options.guard ? { cost: options.guard.snapshot() } : {}),
      ...(options.tunnels ? { tunnels: options.tunnels.list() } : {}),
      ...(options.updates ? { update: options.updates.snapshot() } : {}),
      ...(options.launch ? { watches: options.launch.availability.snapshot().watches, templates: options.launch.templates.list() } : {}),
      ...(options.problems ? { problems: options.problems() } : {})
    })
    const json = JSON.stringify(model)
    this.current = model
    if (json === this.last) return
    this.last = json
    try {
      options.platform.setTray(model)
    } catch {
      // The tray is a convenience; the window keeps working without it.
    }
  }
}
