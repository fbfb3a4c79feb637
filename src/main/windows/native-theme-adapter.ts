/**
 * The theme picked in Settings (light, dark, or the system's), given to the OS's own UI as well
 * as the page: Electron's `nativeTheme.themeSource` decides native message boxes and file
 * dialogs, the context and application menus, the title bar where the OS draws one, and the
 * page's `prefers-color-scheme` (which theme "system" follows in the renderer, so the page and
 * the OS's parts always agree). Told at start before the window shows, and on every `settings`
 * event after.
 */
import { nativeTheme } from 'electron'
import type { Events, Settings, Theme } from '../../shared/contract'
import type { AppCore } from '../core-types'

/** What this uses of Electron's nativeTheme (a fake in tests). */
export interface NativeThemeLike {
  themeSource: 'system' | 'light' | 'dark'
}

/** Electron's themeSource for a Settings theme; anything unknown follows the system, as Settings' default does. */
export function nativeThemeSource(theme: Theme | undefined): NativeThemeLike['themeSource'] {
  return theme === 'light' || theme === 'dark' ? theme : 'system'
}

/**
 * Keeps `target.themeSource` on the user's theme: every `settings` event the core emits from now
 * on; the returned function applies settings read at start (`settings.get`), before the window shows.
 */
export function followThemeSetting(
  core: Pick<AppCore, 'subscribe'>,
  target: NativeThemeLike = nativeTheme
): (settings: Pick<Settings, 'theme'>) => void {
  const apply = ({ theme }: Pick<Settings, 'theme'>): void => {
    const source = nativeThemeSource(theme)
    // Set only on a change: each set makes Electron tell every window the theme was updated.
    if (target.themeSource !== source) target.themeSource = source
  }
  core.subscribe((event, payload) => {
    if (event === 'settings') apply(payload as Events['settings'])
  })
  return apply
}
