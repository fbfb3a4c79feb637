/**
 * The user's settings as main keeps them, and the theme they pick (theme "system" follows the
 * OS colour scheme). Changes made anywhere (this window, the tray, another window) arrive as the
 * `settings` event.
 */
import type { Result, Settings, SettingsPatch } from '../../../shared/contract'
import { call, on } from './bridge'
import { toasts } from './toasts.svelte'

class SettingsStore {
  current = $state<Settings | null>(null)
  /** The OS colour scheme, for theme "system". */
  prefersDark = $state(false)

  theme = $derived.by(() => {
    const chosen = this.current?.theme ?? 'system'
    return chosen === 'system' ? (this.prefersDark ? 'dark' : 'light') : chosen
  })

  listen(): () => void {
    const media = window.matchMedia('(prefers-color-scheme: dark)')
    this.prefersDark = media.matches
    const onMedia = (event: MediaQueryListEvent): void => {
      this.prefersDark = event.matches
    }
    media.addEventListener('change', onMedia)
    const off = on('settings', (settings) => {
      this.current = settings
    })
    return () => {
      media.removeEventListener('change', onMedia)
      off()
    }
  }

  async load(): Promise<void> {
    const settings = await call('settings.get')
    if (settings.ok) this.current = settings.value
  }

  async update(patch: SettingsPatch): Promise<Result<Settings>> {
    const result = await call('settings.update', patch)
    if (result.ok) this.current = result.value
    else toasts.show('error', 'Could not save settings', result.error.message)
    return result
  }
}

export const appSettings = new SettingsStore()
