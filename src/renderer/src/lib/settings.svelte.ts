/**
 * The user's settings as main keeps them, and the theme they pick (theme "system" follows the
 * OS colour scheme). Changes made anywhere (this window, the tray, another window) arrive as the
 * `settings` event.
 */
import type { Result, Settings, SettingsPatch } from '../../../shared/contract'
import { call } from './bridge'
import { Mirror, MirroredStore } from './mirror.svelte'
import { toasts } from './toasts.svelte'

class SettingsStore extends MirroredStore {
  protected readonly mirror = new Mirror({ event: 'settings', read: () => call('settings.get'), initial: null as Settings | null })
  /** The OS colour scheme, for theme "system". */
  prefersDark = $state(false)

  get current(): Settings | null {
    return this.mirror.value
  }

  theme = $derived.by(() => {
    const chosen = this.current?.theme ?? 'system'
    return chosen === 'system' ? (this.prefersDark ? 'dark' : 'light') : chosen
  })

  override listen(): () => void {
    const media = window.matchMedia('(prefers-color-scheme: dark)')
    this.prefersDark = media.matches
    const onMedia = (event: MediaQueryListEvent): void => {
      this.prefersDark = event.matches
    }
    media.addEventListener('change', onMedia)
    const off = super.listen()
    return () => {
      media.removeEventListener('change', onMedia)
      off()
    }
  }

  async update(patch: SettingsPatch): Promise<Result<Settings>> {
    // Main sends `settings` for every saved change: an answer an event overtook is older than it.
    const answer = await this.mirror.ask(() => call('settings.update', patch))
    if (!answer.ok) toasts.show('error', 'Could not save settings', answer.error.message)
    return answer
  }
}

export const appSettings = new SettingsStore()
