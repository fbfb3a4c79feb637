/**
 * The rules engine: pure functions of one instance's rule state, the facts about it and the time
 * (`facts.now`, from the injected clock). They say what to do (remind, start a countdown, cancel
 * it, stop, warn that a plan ends) and when to look again; the cost guard (cost-guard.ts) does it.
 *
 * - A reminder fires once per period of running: after N hours, then N hours after that.
 * - A stop rule that falls due starts a countdown; the stop comes only when the countdown runs
 *   out. "Keep running" ends the countdown and puts every rule off for 2 hours.
 * - The idle rule falls due after M full minutes of samples with every GPU below X %; its
 *   countdown ends as soon as a GPU is busy or a probe is missed.
 * - A countdown found after a restart starts again from the beginning (`resumeCountdown`).
 * - Nothing here ever terminates: the only action is a stop.
 */
import { lowest } from '../../shared/extremes'
import type { Countdown, GuardRules, StopRule } from '../../shared/contract-cost'
import { KEEP_RUNNING_MS, PLAN_WARNING_MS, hoursWords } from '../../shared/guard-rules'
import { idleLongEnough, type IdleEvidence } from './idle'

const HOUR_MS = 3_600_000
/** After a stop the cloud refused, the next try. */
export const STOP_RETRY_MS = 60_000

/** What the guard keeps per instance (persisted in the data folder). */
export interface RuleState {
  rules: GuardRules
  /** When the next reminder is due. */
  nextReminderAt?: number
  /** The stop-at rule acts on the first time of day after this (when it was set). */
  stopAtFrom: number
  /** "Keep running": no rule acts before this. */
  keepRunningUntil?: number
  countdown?: Countdown
  /** The plan end (scheduledStopTimestamp) already warned about. */
  planWarnedFor?: number
  /** A stop was asked for at this time: nothing more is done unless it fails. */
  stopAskedAt?: number
  /** When the app saw this run begin (absent: it took createAtUnixMs). */
  runSeenAt?: number
}

export interface RuleFacts {
  now: number
  runStartedAt: number
  /** A plan's end (scheduledStopTimestamp); absent for hourly billing. */
  planEndsAt?: number
  /** The instance can be stopped now (instance-rules canStop). */
  stoppable: boolean
  /** The GPUs as the probes saw them, judged by this instance's idle threshold; absent without an idle rule. */
  idle?: IdleEvidence
  countdownMs: number
}

export type RuleEffect =
  | { kind: 'remind'; runningMs: number }
  | { kind: 'countdown'; countdown: Countdown }
  | { kind: 'countdown-cancelled'; rule: StopRule; why: string }
  /** `retry`: a stop the cloud refused before, tried again (the user was told already). */
  | { kind: 'stop'; rule: StopRule; reason: string; retry?: boolean }
  | { kind: 'plan-ending'; endsAt: number }

export interface RuleStep {
  state: RuleState
  effects: RuleEffect[]
  /** When to evaluate again at the latest (a sample or a snapshot may come sooner). */
  wakeAt?: number
}

/**
 * The state of an instance the guard has just met. Its first reminder is due N hours after its
 * run began, so one found running for longer than that is reminded of at once: that is the
 * instance someone forgot.
 */
export function initialState(rules: GuardRules, now: number): RuleState {
  return { rules, stopAtFrom: now }
}

/** Why a stop rule wants the instance stopped, in the user's words. */
export function stopReason(rule: StopRule, rules: GuardRules): string {
  switch (rule) {
    case 'idle':
      return `its GPUs were idle for ${rules.idle?.forMinutes ?? 0} min (every GPU below ${rules.idle?.belowPercent ?? 0} %)`
    case 'stop-after':
      return `it has run for ${hoursWords(rules.stopAfterHours ?? 0)}`
    case 'stop-at':
      return `you asked for it to stop at ${rules.stopAtTime ?? ''}`
    case 'job-done':
      return 'its job ended and you asked for it to stop then'
  }
}

/** The first `HH:MM` (local time) strictly after `after`. */
export function nextTimeOfDay(after: number, time: string): number {
  const [hours, minutes] = time.split(':').map(Number) as [number, number]
  const at = new Date(after)
  at.setHours(hours, minutes, 0, 0)
  if (at.getTime() <= after) {
    at.setDate(at.getDate() + 1)
    at.setHours(hours, minutes, 0, 0)
  }
  return at.getTime()
}

/** The first reminder boundary (run start + k × period, k ≥ 1) after `now`. */
function nextPeriodAfter(runStartedAt: number, periodMs: number, now: number): number {
  const periods = Math.max(1, Math.floor((now - runStartedAt) / periodMs) + 1)
  return runStartedAt + periods * periodMs
}

/** When each stop rule falls due on its own (before "Keep running"); idle has no time of its own. */
function dueTimes(state: RuleState, facts: RuleFacts): Partial<Record<StopRule, number>> {
  const { rules } = state
  const due: Partial<Record<StopRule, number>> = {}
  if (rules.stopAfterHours !== null) due['stop-after'] = facts.runStartedAt + rules.stopAfterHours * HOUR_MS
  if (rules.stopAtTime !== null) due['stop-at'] = nextTimeOfDay(state.stopAtFrom, rules.stopAtTime)
  if (rules.idle !== null && facts.idle?.idle && idleLongEnough(facts.idle, rules.idle.forMinutes)) due.idle = facts.idle.latestAt
  return due
}

function ruleIsOn(rule: StopRule, rules: GuardRules): boolean {
  switch (rule) {
    case 'idle':
      return rules.idle !== null
    case 'stop-after':
      return rules.stopAfterHours !== null
    case 'stop-at':
      return rules.stopAtTime !== null
    case 'job-done':
      // Not a rule: the user asked for it when starting the job; only Keep running (or a stop) ends it.
      return true
  }
}

/**
 * A job ended whose user asked for the instance to stop then: the same countdown as a rule's,
 * unless one is under way or a stop was already asked for.
 */
export function jobDoneCountdown(
  current: RuleState,
  reason: string,
  now: number,
  countdownMs: number
): { state: RuleState; started?: Countdown } {
  if (current.countdown || current.stopAskedAt !== undefined) return { state: current }
  const started: Countdown = { rule: 'job-done', reason, startedAt: now, endsAt: now + countdownMs }
  const state: RuleState = { ...current, countdown: started }
  // The user's explicit wish outlasts an earlier "Keep running".
  delete state.keepRunningUntil
  return { state, started }
}

/** One look at an instance at `facts.now`. */
export function evaluate(current: RuleState, facts: RuleFacts): RuleStep {
  const { now } = facts
  const state: RuleState = { ...current }
  const effects: RuleEffect[] = []
  const wakes: number[] = []
  const held = state.keepRunningUntil !== undefined && now < state.keepRunningUntil
  if (state.keepRunningUntil !== undefined && !held) delete state.keepRunningUntil

  // Reminders: once per period, never while "Keep running" holds.
  const remindMs = state.rules.remindAfterHours === null ? undefined : state.rules.remindAfterHours * HOUR_MS
  if (remindMs === undefined) delete state.nextReminderAt
  else {
    state.nextReminderAt ??= facts.runStartedAt + remindMs
    const dueAt = Math.max(state.nextReminderAt, state.keepRunningUntil ?? 0)
    if (now >= dueAt && state.stopAskedAt === undefined) {
      effects.push({ kind: 'remind', runningMs: Math.max(0, now - facts.runStartedAt) })
      // A long absence (the app closed for days) gives one reminder, not one per missed period.
      let next = state.nextReminderAt
      while (next <= now) next += remindMs
      state.nextReminderAt = next
    }
    if (state.stopAskedAt === undefined) wakes.push(Math.max(state.nextReminderAt, state.keepRunningUntil ?? 0))
  }

  // The plan warning, once per plan end, only while there is still time to act.
  if (state.rules.warnBeforePlanEnd && facts.planEndsAt !== undefined && state.planWarnedFor !== facts.planEndsAt) {
    const warnAt = facts.planEndsAt - PLAN_WARNING_MS
    if (now >= facts.planEndsAt) state.planWarnedFor = facts.planEndsAt
    else if (now >= warnAt) {
      effects.push({ kind: 'plan-ending', endsAt: facts.planEndsAt })
      state.planWarnedFor = facts.planEndsAt
    } else wakes.push(warnAt)
  }

  // Stop rules: nothing while a stop is under way or the instance cannot be stopped.
  if (!facts.stoppable || state.stopAskedAt !== undefined) {
    if (state.countdown && !facts.stoppable) delete state.countdown
    return finish(state, effects, wakes, now)
  }
  const due = dueTimes(state, facts)
  const countdown = state.countdown
  if (countdown) {
    if (!ruleIsOn(countdown.rule, state.rules)) {
      delete state.countdown
      effects.push({ kind: 'countdown-cancelled', rule: countdown.rule, why: 'its rule was turned off' })
    } else if (countdown.rule === 'idle' && due.idle === undefined) {
      delete state.countdown
      const why =
        facts.idle && !facts.idle.idle && facts.idle.why === 'busy'
          ? 'a GPU is busy again'
          : 'its GPUs could not be read, and Cloud Tray never stops on missing readings'
      effects.push({ kind: 'countdown-cancelled', rule: 'idle', why })
    } else if (now >= countdown.endsAt) {
      delete state.countdown
      state.stopAskedAt = now
      effects.push({ kind: 'stop', rule: countdown.rule, reason: countdown.reason, ...(countdown.retry ? { retry: true } : {}) })
    } else wakes.push(countdown.endsAt)
    if (state.countdown || state.stopAskedAt !== undefined) return finish(state, effects, wakes, now)
  }

  // The earliest rule due (after "Keep running") starts a countdown; the others wait for their time.
  let first: { rule: StopRule; at: number } | undefined
  for (const [rule, at] of Object.entries(due) as [StopRule, number][]) {
    const effective = Math.max(at, state.keepRunningUntil ?? 0)
    if (effective > now) wakes.push(effective)
    else if (!first || at < first.at) first = { rule, at }
  }
  if (first) {
    const started: Countdown = {
      rule: first.rule,
      reason: stopReason(first.rule, state.rules),
      startedAt: now,
      endsAt: now + facts.countdownMs
    }
    state.countdown = started
    effects.push({ kind: 'countdown', countdown: started })
    wakes.push(started.endsAt)
  }
  return finish(state, effects, wakes, now)
}

function finish(state: RuleState, effects: RuleEffect[], wakes: number[], now: number): RuleStep {
  // Only what lies ahead: a time already past was dealt with in this look (or waits on a stop).
  const ahead = wakes.filter((at) => at > now)
  const wakeAt = lowest(ahead)
  return { state, effects, ...(wakeAt !== undefined ? { wakeAt } : {}) }
}

/**
 * New rules for an instance, from now: a changed reminder counts its periods from the run's
 * start (the next boundary after now), a changed time of day acts from now, an earlier "Keep
 * running" is forgotten (the latest word wins), and a countdown whose rule is off ends.
 */
export function withRules(
  current: RuleState,
  rules: GuardRules,
  runStartedAt: number,
  now: number
): { state: RuleState; effects: RuleEffect[] } {
  const state: RuleState = { ...current, rules }
  const effects: RuleEffect[] = []
  if (rules.remindAfterHours === null) delete state.nextReminderAt
  else if (current.rules.remindAfterHours !== rules.remindAfterHours || state.nextReminderAt === undefined) {
    state.nextReminderAt = nextPeriodAfter(runStartedAt, rules.remindAfterHours * HOUR_MS, now)
  }
  if (current.rules.stopAtTime !== rules.stopAtTime) state.stopAtFrom = now
  if (current.rules.warnBeforePlanEnd !== rules.warnBeforePlanEnd) delete state.planWarnedFor
  delete state.keepRunningUntil
  if (state.countdown && !ruleIsOn(state.countdown.rule, rules)) {
    effects.push({ kind: 'countdown-cancelled', rule: state.countdown.rule, why: 'you changed its rules' })
    delete state.countdown
  }
  return { state, effects }
}

/** "Keep running": no countdown, and nothing stops or reminds for the next 2 hours. */
export function keepRunning(current: RuleState, now: number): RuleState {
  const state: RuleState = { ...current, keepRunningUntil: now + KEEP_RUNNING_MS }
  delete state.countdown
  delete state.stopAskedAt
  if (state.nextReminderAt !== undefined && state.nextReminderAt < now + KEEP_RUNNING_MS) state.nextReminderAt = now + KEEP_RUNNING_MS
  return state
}

/**
 * After a restart of the app: a countdown that was running starts again from the beginning (the
 * user may not have seen it), so nothing is ever stopped at once. A stop asked for just before
 * the restart is looked at afresh.
 */
export function resumeCountdown(current: RuleState, now: number, countdownMs: number): { state: RuleState; resumed?: Countdown } {
  const state: RuleState = { ...current }
  delete state.stopAskedAt
  if (!current.countdown) return { state }
  const { retry: _retry, ...countdown } = current.countdown
  const resumed: Countdown = { ...countdown, startedAt: now, endsAt: now + countdownMs }
  state.countdown = resumed
  return { state, resumed }
}

/** The cloud refused the stop: try again in a minute, with the countdown shown meanwhile. */
export function stopFailed(current: RuleState, rule: StopRule, reason: string, now: number): RuleState {
  const state: RuleState = { ...current, countdown: { rule, reason, startedAt: now, endsAt: now + STOP_RETRY_MS, retry: true } }
  delete state.stopAskedAt
  return state
}
