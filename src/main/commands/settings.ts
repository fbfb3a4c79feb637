/**
 * Settings: read and patch; the store validates and writes atomically. A change is announced,
 * the OS start-at-login entry follows ours, and whatever shows settings (the tray) updates.
 */
import type { Settings, SettingsPatch } from '../../shared/contract'
import type { EventSink, Platform } from '../core-types'
import type { CommandGroup } from './dispatcher'

export interface SettingsServices {
  store: { get(): Settings; update(patch: SettingsPatch): Promise<Settings> }
  emit: EventSink
  platform: Pick<Platform, 'setStartAtLogin'>
  /** After a change was saved. */
  changed(settings: Settings, before: Settings): void
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
        services.changed(next, before)
        return next
      }
    }
  }
}
