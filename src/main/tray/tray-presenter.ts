/**
 * Keeps the tray menu in step with the app: after anything it shows may have changed (the
 * session, a snapshot, the watcher's health, the balance, the cost guard, a setting, a tunnel) it
 * recomputes the model (tray-model.ts) and, only when it differs, hands it to the platform's tray.
 */
import type { UpdateState } from '../../shared/contract-update'
import type { BalanceSnapshot, InstancesSnapshot, SessionState, Settings, TrayModel, WatchHealth } from '../../shared/contract'
import type { CostSnapshot } from '../../shared/contract-cost'
import type { Platform } from '../core-types'
import { trayModel, type TrayContext } from './tray-model'

export interface TrayPresenterOptions {
  /** The account: the session, and its profile's name for the status line. */
  session: { state(): SessionState; profileName(): string }
  /** The watcher's snapshot. */
  instances: { snapshot(): InstancesSnapshot }
  settings: { get(): Settings }
  /** The balance model's latest read, for the menu's balance line. */
  balance?: { snapshot(): BalanceSnapshot }
  /** The cost guard: burn rate, GPU activity, rules and countdowns. */
  cost?: { snapshot(): CostSnapshot }
  /** The port tunnels (ssh/tunnel-manager.ts), listed in their instance's submenu. */
  tunnels?: () => TrayContext['tunnels']
  platform: Pick<Platform, 'setTray'>
  /** The updater's state: a downloaded update adds "Restart to update". */
  update?: () => UpdateState
}

export class TrayPresenter {
  private health: WatchHealth = { state: 'ok' }
  private last = ''
  private current: TrayModel | undefined

  constructor(private readonly options: TrayPresenterOptions) {}

  /** The watcher's health changed: the menu says so while polling fails. */
  setHealth(health: WatchHealth): void {
    this.health = health
    this.update()
  }

  update(): void {
    const { options } = this
    const model = trayModel(options.session.state(), options.instances.snapshot(), options.settings.get(), {
      health: this.health,
      profileName: options.session.profileName(),
      ...(options.balance ? { balance: options.balance.snapshot() } : {}),
      ...(options.cost ? { cost: options.cost.snapshot() } : {}),
      ...(options.tunnels ? { tunnels: options.tunnels() } : {}),
      ...(options.update ? { update: options.update() } : {})
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

  /** The menu as it stands: what `tray.activate` checks an item against. */
  model(): TrayModel {
    if (!this.current) this.update()
    return this.current!
  }
}
