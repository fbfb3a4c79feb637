/**
 * The real Electron tray shows what the tray model says. The model is computed here by the same
 * pure function (src/main/tray/tray-model.ts) from the state the window reads over the contract,
 * every part main gives it (balance, cost guard, tunnels, updates, watches, templates); the menu
 * is captured in the main process as the adapter hands it to Electron (Tray#setContextMenu), and
 * the two are compared item by item, submenus included.
 */
import { expect, test } from '@playwright/test'
import { launchApp, requireElectron, signInToSandbox } from './electron-app'
import type {
  BalanceSnapshot,
  InstancesSnapshot,
  ProfilesState,
  SessionState,
  Settings,
  TrayMenuItem,
  TrayModel
} from '../../src/shared/contract'
import type { CostSnapshot } from '../../src/shared/contract-cost'
import type { AvailabilitySnapshot, LaunchTemplate } from '../../src/shared/contract-launch'
import type { TunnelInfo } from '../../src/shared/contract-tunnels'
import type { UpdateState } from '../../src/shared/contract-update'
import { trayModel } from '../../src/main/tray/tray-model'

interface ShownItem {
  type: string
  label: string
  enabled: boolean
  submenu?: ShownItem[]
}

function fromModel(items: readonly TrayMenuItem[]): ShownItem[] {
  return items.map((item) => {
    const type = item.type ?? 'normal'
    if (type === 'separator') return { type, label: '', enabled: true }
    return { type, label: item.label, enabled: item.enabled, ...(type === 'submenu' ? { submenu: fromModel(item.submenu ?? []) } : {}) }
  })
}

test('the tray menu matches its model', async () => {
  const executable = requireElectron()
  const launched = await launchApp(executable)
  const { app, window: page } = launched
  try {
    // Record every menu and tooltip the app gives its tray from now on.
    await app.evaluate(({ Tray }) => {
      const g = globalThis as unknown as { __trayShown?: { menu: unknown; tooltip: string } }
      g.__trayShown = { menu: [], tooltip: '' }
      type Item = { type: string; label: string; enabled: boolean; submenu?: { items: Item[] } | null }
      const view = (items: Item[]): unknown[] =>
        items.map((i) =>
          i.type === 'separator'
            ? { type: 'separator', label: '', enabled: true }
            : {
                type: i.type,
                label: i.label,
                enabled: i.enabled,
                ...(i.type === 'submenu' ? { submenu: view(i.submenu?.items ?? []) } : {})
              }
        )
      const setContextMenu = Tray.prototype.setContextMenu
      Tray.prototype.setContextMenu = function (menu) {
        g.__trayShown!.menu = menu ? view(menu.items as unknown as Item[]) : []
        return setContextMenu.call(this, menu)
      }
      const setToolTip = Tray.prototype.setToolTip
      Tray.prototype.setToolTip = function (tip) {
        g.__trayShown!.tooltip = tip
        return setToolTip.call(this, tip)
      }
    })

    await signInToSandbox(page)

    const model = async (): Promise<TrayModel> => {
      const [session, snapshot, settings, profiles, balance, cost, tunnels, update, availability, templates] = (await page.evaluate(
        async () => {
          const w = globalThis as unknown as { cloud: { invoke: (c: string) => Promise<{ ok: boolean; value: unknown }> } }
          const get = async (command: string): Promise<unknown> => {
            const answer = await w.cloud.invoke(command)
            if (!answer.ok) throw new Error(`${command} failed`)
            return answer.value
          }
          const commands = [
            'session.get',
            'instances.get',
            'settings.get',
            'profiles.get',
            'balance.get',
            'cost.get',
            'tunnels.list',
            'update.get',
            'availability.get',
            'templates.list'
          ]
          return Promise.all(commands.map(get))
        }
      )) as [
        SessionState,
        InstancesSnapshot,
        Settings,
        ProfilesState,
        BalanceSnapshot,
        CostSnapshot,
        TunnelInfo[],
        UpdateState,
        AvailabilitySnapshot,
        LaunchTemplate[]
      ]
      const profileName = profiles.profiles.find((profile) => profile.id === session.profileId)?.name ?? ''
      // As tray-presenter.ts builds it; a healthy watch and no failing part are what a fresh launch has.
      return trayModel(session, snapshot, settings, {
        health: { state: 'ok' },
        profileName,
        balance,
        cost,
        tunnels,
        update,
        watches: availability.watches,
        templates
      })
    }
    const shown = async (): Promise<{ menu: ShownItem[]; tooltip: string }> =>
      app.evaluate(() => (globalThis as unknown as { __trayShown: { menu: ShownItem[]; tooltip: string } }).__trayShown)

    // The menu follows the signed-in model (rebuilt when the model changes).
    await expect
      .poll(async () => JSON.stringify((await shown()).menu) === JSON.stringify(fromModel((await model()).items)), { timeout: 15_000 })
      .toBe(true)
    const [current, menu] = [await model(), await shown()]
    expect(menu.menu).toEqual(fromModel(current.items))
    expect(menu.tooltip).toBe(current.tooltip)
    expect(current.items.some((item) => item.label.length > 0)).toBe(true)
  } finally {
    await launched.close()
  }
})
