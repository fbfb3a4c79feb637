/**
 * The user's settings as main keeps them, and the theme they pick (theme "system" follows the
 * OS colour scheme). Changes made anywhere (this window, the tray, another window) arrive as the
 * `settings` event.
 */
import type { Result, Settings, SettingsPatch } from '../../../shared/contract'
import { AnswerOrder } from './answer-order'
import { call, on } from './bridge'
import { toasts } from './toasts.svelte'

class SettingsStore {
  current = $state<Settings | null>(null)
  /** The OS colour scheme, for theme "system". */
  prefersDark = $state(false)
  private readonly order = new AnswerOrder()

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
    const off = on(
      'settings',
      this.order.event((settings) => {
        this.current = settings
      })
    )
    return () => {
      media.removeEventListener('change', onMedia)
      off()
    }
  }

  async load(): Promise<void> {
    const { answer, overtaken } = await this.order.ask(() => call('settings.get'))
    if (answer.ok && !overtaken) this.current = answer.value
  }

  async update(patch: SettingsPatch): Promise<Result<Settings>> {
    // Main sends `settings` for every saved change: an answer an event overtook is older than it.
    const { answer, overtaken } = await this.order.ask(() => call('settings.update', patch))
    if (answer.ok && !overtaken) this.current = answer.value
    else if (!answer.ok) toasts.show('error', 'Could not save settings', answer.error.message)
    return answer
  }
}

export const appSettings = new SettingsStore()
