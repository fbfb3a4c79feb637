/** The theme picked in Settings reaches Electron's nativeTheme, against a recording fake (Electron cannot run here). */
import { describe, expect, it, vi } from 'vitest'
import type { EventName, Events, Settings } from '../../shared/contract'
import type { EventSink } from '../core-types'

/** Electron's nativeTheme as far as the adapter uses it: every set recorded. */
function fakeNativeTheme() {
  const sets: string[] = []
  let source = 'system'
  return {
    sets,
    get themeSource() {
      return source as 'system' | 'light' | 'dark'
    },
    set themeSource(value: 'system' | 'light' | 'dark') {
      sets.push(value)
      source = value
    }
  }
}

const electronTheme = fakeNativeTheme()
vi.mock('electron', () => ({ nativeTheme: electronTheme }))
const { followThemeSetting, nativeThemeSource } = await import('./native-theme-adapter')

/** A core that only emits: the settings group's announcement of a saved change, as the hub carries it. */
function fakeCore() {
  const sinks: EventSink[] = []
  return {
    subscribe(sink: EventSink) {
      sinks.push(sink)
      return () => undefined
    },
    emit<E extends EventName>(event: E, payload: Events[E]) {
      for (const sink of sinks) sink(event, payload)
    }
  }
}

const settings = (theme: Settings['theme']): Settings => ({ theme }) as Settings

describe('native theme adapter', () => {
  it("sets Electron's nativeTheme from the settings read at start, then from each change", () => {
    const core = fakeCore()
    const applyAtStart = followThemeSetting(core)
    applyAtStart(settings('dark'))
    expect(electronTheme.themeSource).toBe('dark')
    core.emit('settings', settings('light'))
    expect(electronTheme.themeSource).toBe('light')
    core.emit('settings', settings('system'))
    expect(electronTheme.sets).toEqual(['dark', 'light', 'system'])
  })

  it('sets it only when the theme changed (another setting saved leaves it alone), and ignores other events', () => {
    const theme = fakeNativeTheme()
    const core = fakeCore()
    followThemeSetting(core, theme)(settings('system'))
    core.emit('settings', settings('dark'))
    core.emit('settings', settings('dark'))
    core.emit('balance', null as unknown as Events['balance'])
    expect(theme.sets).toEqual(['dark'])
  })

  it('follows the system for a theme it does not know', () => {
    expect(nativeThemeSource('light')).toBe('light')
    expect(nativeThemeSource('dark')).toBe('dark')
    expect(nativeThemeSource('system')).toBe('system')
    expect(nativeThemeSource('sepia' as never)).toBe('system')
    expect(nativeThemeSource(undefined)).toBe('system')
  })
})
