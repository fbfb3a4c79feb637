/**
 * The cost guard's rules, described once: their bounds and schema (main checks what a renderer
 * sends and what settings.json holds with it; the forms take their limits from it), the
 * factory defaults, and the words that show them on an instance, in the tray and in Settings.
 */
import { z } from 'zod'
import type { CostGuardSettings, GuardRules } from './contract-cost'

/** Hours: from a quarter of an hour to a 30-day month (the longest plan period). */
export const MIN_HOURS = 0.25
export const MAX_HOURS = 720
/** Idle: a whole percentage, and minutes up to a day. */
export const MAX_IDLE_MINUTES = 24 * 60
/** The notice before an automatic stop: 1 to 60 minutes. */
export const MIN_COUNTDOWN_MINUTES = 1
export const MAX_COUNTDOWN_MINUTES = 60
/** The plan warning comes this long before the plan ends. */
export const PLAN_WARNING_MS = 15 * 60_000
/** "Keep running" and "Keep running for 2 h" put things off by this much. */
export const KEEP_RUNNING_MS = 2 * 60 * 60_000

const hours = z.number().finite().min(MIN_HOURS).max(MAX_HOURS)

export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/

export const GuardRulesSchema = z
  .object({
    remindAfterHours: hours.nullable(),
    stopAfterHours: hours.nullable(),
    stopAtTime: z.string().regex(TIME_OF_DAY, 'Give a time of day as HH:MM (24 h).').nullable(),
    idle: z
      .object({
        belowPercent: z.number().int().min(1).max(100),
        forMinutes: z.number().int().min(1).max(MAX_IDLE_MINUTES)
      })
      .strict()
      .nullable(),
    warnBeforePlanEnd: z.boolean()
  })
  .strict() satisfies z.ZodType<GuardRules, unknown>

export const NO_RULES: GuardRules = { remindAfterHours: null, stopAfterHours: null, stopAtTime: null, idle: null, warnBeforePlanEnd: false }

/**
 * Out of the box, a new instance gets a reminder after 8 hours and the plan warning: both only
 * tell. Nothing stops an instance unless the user asks for it.
 */
export const DEFAULT_COST_GUARD: CostGuardSettings = {
  defaults: { ...NO_RULES, remindAfterHours: 8, warnBeforePlanEnd: true },
  countdownMinutes: 5,
  trayTitle: false,
  offerStopOnQuit: false
}

/** 1.5 → "1 h 30 min", 8 → "8 h", 0.25 → "15 min". */
export function hoursWords(value: number): string {
  const minutes = Math.round(value * 60)
  const h = Math.floor(minutes / 60)
  const m = minutes % 60
  if (h === 0) return `${m} min`
  return m === 0 ? `${h} h` : `${h} h ${m} min`
}

/** The rules in words, one phrase each, in the order they would act. */
export function ruleWords(rules: GuardRules): string[] {
  const words: string[] = []
  if (rules.idle) words.push(`auto-stops when idle ${rules.idle.forMinutes} min (GPU below ${rules.idle.belowPercent} %)`)
  if (rules.stopAfterHours !== null) words.push(`auto-stops after ${hoursWords(rules.stopAfterHours)} running`)
  if (rules.stopAtTime !== null) words.push(`auto-stops at ${rules.stopAtTime}`)
  if (rules.remindAfterHours !== null) words.push(`reminds every ${hoursWords(rules.remindAfterHours)} running`)
  if (rules.warnBeforePlanEnd) words.push('warns 15 min before its plan ends')
  return words
}

export function hasStopRule(rules: GuardRules): boolean {
  return rules.idle !== null || rules.stopAfterHours !== null || rules.stopAtTime !== null
}
