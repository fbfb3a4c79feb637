/**
 * The settings' bounds are said once (shared/settings-limits.ts): main's schema refuses exactly
 * what lies outside them, and the Settings form's check (pollIntervalsFit) agrees with it.
 */
import { describe, expect, it } from 'vitest'
import {
  MAX_FAST_POLL_MS,
  MAX_STEADY_POLL_MS,
  MAX_TERMINAL_FONT_SIZE,
  MIN_FAST_POLL_MS,
  MIN_STEADY_POLL_MS,
  MIN_TERMINAL_FONT_SIZE,
  POLL_INTERVALS_WORDS,
  pollIntervalsFit
} from '../../shared/settings-limits'
import { DEFAULT_SETTINGS, SettingsPatchSchema, SettingsSchema, applySettingsPatch } from './settings-schema'

const takes = (patch: unknown): boolean => SettingsPatchSchema.safeParse(patch).success

describe('the settings bounds, said once', () => {
  it.each([
    ['fastMs', MIN_FAST_POLL_MS, MAX_FAST_POLL_MS],
    ['steadyMs', MIN_STEADY_POLL_MS, MAX_STEADY_POLL_MS]
  ] as const)('main takes a %s from %i to %i ms and nothing outside', (field, min, max) => {
    expect([min - 1, min, max, max + 1].map((ms) => takes({ pollIntervals: { [field]: ms } }))).toEqual([false, true, true, false])
  })

  it('main takes a terminal font size within its bounds only', () => {
    const sizes = [MIN_TERMINAL_FONT_SIZE - 1, MIN_TERMINAL_FONT_SIZE, MAX_TERMINAL_FONT_SIZE, MAX_TERMINAL_FONT_SIZE + 1]
    expect(sizes.map((terminalFontSize) => takes({ terminalFontSize }))).toEqual([false, true, true, false])
  })

  it.each([
    [2_500, 30_000, true],
    [MIN_FAST_POLL_MS, MIN_STEADY_POLL_MS, true],
    [MAX_FAST_POLL_MS, MAX_STEADY_POLL_MS, true],
    [MIN_FAST_POLL_MS - 1, 30_000, false],
    [2_500, MIN_STEADY_POLL_MS - 1, false],
    [2_500, MAX_STEADY_POLL_MS + 1, false],
    [MAX_FAST_POLL_MS + 1, MAX_STEADY_POLL_MS, false],
    [20_000, 10_000, false]
  ])('the form takes fast %i ms and steady %i ms: %s, as main would', (fastMs, steadyMs, fits) => {
    expect(pollIntervalsFit(fastMs, steadyMs)).toBe(fits)
    if (fits) expect(takes({ pollIntervals: { fastMs, steadyMs } })).toBe(true)
  })

  it('main refuses a change that leaves the steady interval shorter than the fast one, as the form does', () => {
    const current = { ...DEFAULT_SETTINGS, pollIntervals: { fastMs: 2_500, steadyMs: 30_000 } }
    expect(() => applySettingsPatch(current, { pollIntervals: { fastMs: 45_000 } })).toThrow(POLL_INTERVALS_WORDS)
    expect(applySettingsPatch(current, { pollIntervals: { fastMs: 30_000 } }).pollIntervals).toEqual({ fastMs: 30_000, steadyMs: 30_000 })
  })

  it('a settings file whose intervals do not fit together gets the default intervals, and keeps the rest', () => {
    const loaded = SettingsSchema.parse({ theme: 'dark', pollIntervals: { fastMs: 20_000, steadyMs: 10_000 } })
    expect(loaded.pollIntervals).toEqual(DEFAULT_SETTINGS.pollIntervals)
    expect(loaded.theme).toBe('dark')
  })

  it('says the bounds in words', () => {
    expect(POLL_INTERVALS_WORDS).toBe(
      'Use 1–60 seconds for the fast interval and 5–600 seconds for the steady one, no shorter than the fast one.'
    )
  })
})
