/**
 * App-wide state that is neither session nor instances: what shell we run in, settings (and
 * the theme they pick), warnings, and in the web shell the stand-ins for Electron-only parts
 * (tray model, recorded effects, the connection to `npm run web`).
 */
import type { ErrorInfo, Result, Settings, SettingsPatch, TrayModel, Warning } from '../../../shared/contract'
import type { RecordedEffect } from '../../../shared/web/web-shell-events'
import { call, inWebShell, on, onConnectionState, onWebShell } from './bridge'
import type { ConnectionState } from './transport-ws'
import { toasts } from './toasts.svelte'

const MAX_RECORDED = 50

/** In the web shell, what stands in for the parts only Electron has, in the user's words. */
const WEB_STAND_INS = [
  'Desktop notifications appear as messages on this page.',
  'The tray menu is shown as a panel on this page.',
  'Notebook windows and links are recorded and listed instead of opened.'
]

class ShellStore {
  readonly isWeb = inWebShell()
  readonly standIns = this.isWeb ? WEB_STAND_INS : []
  settings = $state<Settings | null>(null)
  warnings = $state<Warning[]>([])
  tray = $state<TrayModel | null>(null)
  recorded = $state<RecordedEffect[]>([])
  connection = $state<ConnectionState>('open')
  loadError = $state<ErrorInfo | null>(null)
  /** The OS colour scheme, for theme "system". */
  prefersDark = $state(false)

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
      // The web shell sends both when the page connects, and again after a reconnect.
      onWebShell('tray', (tray) => {
        this.tray = tray
      }),
      onWebShell('recorded', (effect) => {
        if (this.recorded.some((seen) => seen.id === effect.id)) return
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
    const [settings, warnings] = await Promise.all([call('settings.get'), call('warnings.get')])
    if (settings.ok) this.settings = settings.value
    else this.loadError = settings.error
    if (warnings.ok) this.warnings = warnings.value
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
