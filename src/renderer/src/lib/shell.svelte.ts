/**
 * App-wide state that is neither session nor instances: what shell we run in, settings (and
 * the theme they pick), warnings, and in the web shell the stand-ins for Electron-only parts
 * (tray model, recorded effects, the connection to `npm run web`).
 */
import type { AppInfo, ErrorInfo, RecordedEffect, Result, Settings, SettingsPatch, TrayModel, Warning } from '../../../shared/contract'
import { call, on, onConnectionState } from './bridge'
import type { ConnectionState } from './transport-ws'
import { toasts } from './toasts.svelte'

const MAX_RECORDED = 50

class ShellStore {
  info = $state<AppInfo | null>(null)
  settings = $state<Settings | null>(null)
  warnings = $state<Warning[]>([])
  tray = $state<TrayModel | null>(null)
  recorded = $state<RecordedEffect[]>([])
  connection = $state<ConnectionState>('open')
  loadError = $state<ErrorInfo | null>(null)
  /** The OS colour scheme, for theme "system". */
  prefersDark = $state(false)

  get isWeb(): boolean {
    return this.info?.shell === 'web'
  }

  theme = $derived.by(() => {
    const chosen = this.settings?.theme ?? 'system'
    return chosen === 'system' ? (this.prefersDark ? 'dark' : 'light') : chosen
  })

  listen(): () => void {
    const media = window.matchMedia('(prefers-color-scheme: dark)')
    this.prefersDark = media.matches
    const onMedia = (event: MediaQueryListEvent): void => {
      this.prefersDark = event.matches
    }
    media.addEventListener('change', onMedia)
    const offs = [
      on('settings', (settings) => {
        this.settings = settings
      }),
      on('warning', (warning) => {
        this.warnings = [...this.warnings.filter((w) => w.id !== warning.id), warning]
      }),
      on('tray', (tray) => {
        this.tray = tray
      }),
      on('recorded', (effect) => {
        this.recorded = [effect, ...this.recorded].slice(0, MAX_RECORDED)
      }),
      // In Electron the OS shows `notification`s. The web shell has no OS notifications: each is
      // listed under "Would have opened outside the page" (a `recorded` effect), and the status
      // change behind it already has its toast (instances.svelte.ts), so it gets no second one.
      onConnectionState((state) => {
        this.connection = state
      })
    ]
    return () => {
      media.removeEventListener('change', onMedia)
      offs.forEach((off) => off())
    }
  }

  async load(): Promise<void> {
    const [info, settings, warnings] = await Promise.all([call('app.info'), call('settings.get'), call('warnings.get')])
    if (info.ok) this.info = info.value
    else this.loadError = info.error
    if (settings.ok) this.settings = settings.value
    if (warnings.ok) this.warnings = warnings.value
    if (this.isWeb) {
      const [tray, recorded] = await Promise.all([call('tray.get'), call('recorded.get')])
      if (tray.ok) this.tray = tray.value
      if (recorded.ok) this.recorded = [...recorded.value].reverse().slice(0, MAX_RECORDED)
    }
  }

  async updateSettings(patch: SettingsPatch): Promise<Result<Settings>> {
    const result = await call('settings.update', patch)
    if (result.ok) this.settings = result.value
    else toasts.show('error', 'Could not save settings', result.error.message)
    return result
  }

  dismissWarning(id: string): void {
    this.warnings = this.warnings.filter((w) => w.id !== id)
  }
}

export const shell = new ShellStore()
