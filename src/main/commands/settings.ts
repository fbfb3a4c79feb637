/**
 * Settings: read and patch; the store validates and writes atomically. A change is announced
 * (`settings`: the windows and the tray follow), the OS start-at-login entry follows ours, and a
 * new low-balance level is judged at once.
 */
import type { Settings, SettingsPatch } from '../../shared/contract'
import type { EventSink, Platform } from '../core-types'
import type { CommandGroup } from './dispatcher'

export interface SettingsServices {
  store: { get(): Settings; update(patch: SettingsPatch): Promise<Settings> }
  emit: EventSink
  platform: Pick<Platform, 'setStartAtLogin'>
  /** The balance model: its warning re-arms at a new threshold. */
  balance: { thresholdChanged(): void }
}

export function settingsCommands(services: SettingsServices): CommandGroup<'settings.get' | 'settings.update'> {
  const { store } = services
  return {
    handlers: {
      'settings.get': async () => store.get(),
      'settings.update': async (patch) => {
        const before = store.get()
        const next = await store.update(patch)
        services.emit('settings', next)
        if (next.startAtLogin !== before.startAtLogin) services.platform.setStartAtLogin(next.startAtLogin)
        if (next.lowBalanceThreshold !== before.lowBalanceThreshold) services.balance.thresholdChanged()
        return next
      }
    }
  }
}
