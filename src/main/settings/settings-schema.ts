/**
 * The settings file's schema. Each field has its default, so a file written by an older version
 * (fewer fields) still loads, and unknown fields from a newer version are dropped, not fatal.
 */
import { z } from 'zod'
import type { Settings } from '../../shared/contract'
import { DEFAULT_COST_GUARD, GuardRulesSchema, MAX_COUNTDOWN_MINUTES, MIN_COUNTDOWN_MINUTES } from '../../shared/guard-rules'
import {
  MAX_FAST_POLL_MS,
  MAX_LOW_BALANCE,
  MAX_STEADY_POLL_MS,
  MAX_STUCK_MINUTES,
  MAX_TERMINAL_FONT_SIZE,
  MIN_FAST_POLL_MS,
  MIN_STEADY_POLL_MS,
  MIN_STUCK_MINUTES,
  MIN_TERMINAL_FONT_SIZE,
  POLL_INTERVALS_WORDS,
  pollIntervalsFit
} from '../../shared/settings-limits'
import { AppError } from '../app-error'

export const DEFAULT_SETTINGS: Settings = {
  notifications: { ready: true, failed: true, stopped: true, released: true, stuck: true },
  stuckStartMinutes: 15,
  lowBalanceThreshold: 10,
  pollIntervals: { fastMs: 2_500, steadyMs: 30_000 },
  sshKeyFile: null,
  startAtLogin: false,
  openWindowAtStart: true,
  theme: 'system',
  terminalFontSize: 14,
  terminals: { plainShellProfiles: [], hideNoTmuxNotice: false, onCloseTab: 'ask' },
  terminalClipboardWrite: false,
  costGuard: DEFAULT_COST_GUARD,
  updateChannel: 'stable'
}

const d = DEFAULT_SETTINGS
// Each typed value's bounds, for the file and for a patch alike (shared/settings-limits.ts).
const countdownMinutes = z.number().int().min(MIN_COUNTDOWN_MINUTES).max(MAX_COUNTDOWN_MINUTES)
const stuckStartMinutes = z.number().int().min(MIN_STUCK_MINUTES).max(MAX_STUCK_MINUTES)
const lowBalanceThreshold = z.number().min(0).max(MAX_LOW_BALANCE).nullable()
const fastMs = z.number().int().min(MIN_FAST_POLL_MS).max(MAX_FAST_POLL_MS)
const steadyMs = z.number().int().min(MIN_STEADY_POLL_MS).max(MAX_STEADY_POLL_MS)
const terminalFontSize = z.number().int().min(MIN_TERMINAL_FONT_SIZE).max(MAX_TERMINAL_FONT_SIZE)
const plainShellProfiles = z.array(z.string().min(1).max(200)).max(100)
const hideNoTmuxNotice = z.boolean()
const onCloseTab = z.enum(['ask', 'leave-running', 'end'])

export const SettingsSchema = z.object({
  notifications: z
    .object({
      ready: z.boolean().default(d.notifications.ready),
      failed: z.boolean().default(d.notifications.failed),
      stopped: z.boolean().default(d.notifications.stopped),
      released: z.boolean().default(d.notifications.released),
      stuck: z.boolean().default(d.notifications.stuck)
    })
    .default(d.notifications),
  stuckStartMinutes: stuckStartMinutes.default(d.stuckStartMinutes),
  lowBalanceThreshold: lowBalanceThreshold.default(d.lowBalanceThreshold),
  pollIntervals: z
    .object({
      fastMs: fastMs.default(d.pollIntervals.fastMs),
      steadyMs: steadyMs.default(d.pollIntervals.steadyMs)
    })
    // A hand-edited pair main would not take (out of bounds, or the steady interval shorter than
    // the fast one): the default pair, not the whole file set aside. pollIntervalsFit is the
    // rule the Settings form says too.
    .refine(({ fastMs, steadyMs }) => pollIntervalsFit(fastMs, steadyMs))
    .catch(d.pollIntervals)
    .default(d.pollIntervals),
  sshKeyFile: z.string().min(1).nullable().default(d.sshKeyFile),
  startAtLogin: z.boolean().default(d.startAtLogin),
  openWindowAtStart: z.boolean().default(d.openWindowAtStart),
  theme: z.enum(['system', 'light', 'dark']).default(d.theme),
  terminalFontSize: terminalFontSize.default(d.terminalFontSize),
  terminals: z
    .object({
      plainShellProfiles: plainShellProfiles.catch(d.terminals.plainShellProfiles).default(d.terminals.plainShellProfiles),
      hideNoTmuxNotice: hideNoTmuxNotice.default(d.terminals.hideNoTmuxNotice),
      onCloseTab: onCloseTab.catch(d.terminals.onCloseTab).default(d.terminals.onCloseTab)
    })
    .default(d.terminals),
  terminalClipboardWrite: z.boolean().default(d.terminalClipboardWrite),
  costGuard: z
    .object({
      // A hand-edited rule that does not parse falls back to the factory defaults, not to no guard.
      defaults: GuardRulesSchema.catch(d.costGuard.defaults).default(d.costGuard.defaults),
      countdownMinutes: countdownMinutes.default(d.costGuard.countdownMinutes),
      trayTitle: z.boolean().default(d.costGuard.trayTitle),
      offerStopOnQuit: z.boolean().default(d.costGuard.offerStopOnQuit)
    })
    .default(d.costGuard),
  updateChannel: z.enum(['stable', 'beta']).catch(d.updateChannel).default(d.updateChannel)
}) satisfies z.ZodType<Settings, unknown>

/** A patch from the renderer: every field optional, nested groups partial; unknown keys refused. */
export const SettingsPatchSchema = z
  .object({
    notifications: z
      .object({
        ready: z.boolean(),
        failed: z.boolean(),
        stopped: z.boolean(),
        released: z.boolean(),
        stuck: z.boolean()
      })
      .partial()
      .strict(),
    stuckStartMinutes,
    lowBalanceThreshold,
    pollIntervals: z.object({ fastMs, steadyMs }).partial().strict(),
    sshKeyFile: z.string().min(1).nullable(),
    startAtLogin: z.boolean(),
    openWindowAtStart: z.boolean(),
    theme: z.enum(['system', 'light', 'dark']),
    terminalFontSize,
    terminals: z.object({ plainShellProfiles, hideNoTmuxNotice, onCloseTab }).partial().strict(),
    terminalClipboardWrite: z.boolean(),
    costGuard: z
      .object({ defaults: GuardRulesSchema, countdownMinutes, trayTitle: z.boolean(), offerStopOnQuit: z.boolean() })
      .partial()
      .strict(),
    updateChannel: z.enum(['stable', 'beta'])
  })
  .partial()
  .strict()

/** The settings with the patch applied; refused when the poll intervals it leaves do not fit together. */
export function applySettingsPatch(current: Settings, patch: z.infer<typeof SettingsPatchSchema>): Settings {
  const polls = { ...current.pollIntervals, ...patch.pollIntervals }
  // Each bound is the patch schema's; whether the two fit together shows only once merged.
  if (!pollIntervalsFit(polls.fastMs, polls.steadyMs)) throw new AppError('bad-input', POLL_INTERVALS_WORDS, { field: 'pollIntervals' })
  return SettingsSchema.parse({
    ...current,
    ...patch,
    notifications: { ...current.notifications, ...patch.notifications },
    pollIntervals: { ...current.pollIntervals, ...patch.pollIntervals },
    terminals: { ...current.terminals, ...patch.terminals },
    costGuard: { ...current.costGuard, ...patch.costGuard }
  })
}
