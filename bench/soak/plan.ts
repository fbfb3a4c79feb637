/**
 * The soak's day: which instances are created when, the rules each gets, and what each rule
 * must do (the "acted when due" table). Times are minutes from the start of the emulated day.
 */
import type { GuardRules } from '../../src/shared/contract-cost'

export type Role = 'terminal' | 'hostile' | 'busy' | 'idle' | 'stop-at' | 'reminder' | 'stop-after' | 'user-stop'

export interface PlannedInstance {
  index: number
  name: string
  role: Role
  /** Minutes into the day it is created. */
  createAtMin: number
  rules: GuardRules
  /** Its host key is trusted (a terminal was opened once): GPU probes and SSH work without asking. */
  trusted: boolean
  /** Minutes after its run began that the user stops it by hand. */
  userStopAfterMin?: number
  /** A port tunnel to its Jupyter (8888) is kept open and used. */
  tunnel?: boolean
  /** SSH server restarts may be injected on it (not on idle-rule instances, whose streak they would break). */
  restartable: boolean
}

const NONE: GuardRules = { remindAfterHours: null, stopAfterHours: null, stopAtTime: null, idle: null, warnBeforePlanEnd: false }
const IDLE = { belowPercent: 5, forMinutes: 10 }

/** The countdown before every automatic stop (Settings → Cost guard). */
export const COUNTDOWN_MINUTES = 1

/** Twenty instances over the first ten hours, every role represented; `hours` scales the stop-after rules. */
export function dayPlan(instances = 20): PlannedInstance[] {
  const plan: PlannedInstance[] = []
  const add = (role: Role, rules: Partial<GuardRules>, extra: Partial<PlannedInstance> = {}): void => {
    const index = plan.length
    if (index >= instances) return
    plan.push({
      index,
      name: `soak-${String(index).padStart(2, '0')}-${role}`,
      role,
      createAtMin: 5 + index * 30,
      rules: { ...NONE, ...rules },
      trusted: false,
      restartable: false,
      ...extra
    })
  }
  // Long-lived, with a terminal each (floods) and two tunnels; SSH restarts land on them.
  for (let n = 0; n < 5; n++) add('terminal', { stopAfterHours: 10 + n }, { trusted: true, restartable: true, tunnel: n < 2 })
  // Readings it cannot use: never idle; its stop-after still acts.
  add('hostile', { idle: IDLE, stopAfterHours: 4 }, { trusted: true })
  // Busy GPUs: the idle rule never acts.
  add('busy', { idle: IDLE, stopAfterHours: 3 }, { trusted: true })
  for (let n = 0; n < 3; n++) add('idle', { idle: IDLE }, { trusted: true })
  add('stop-at', {}, { restartable: true })
  add('stop-at', {}, { restartable: true })
  add('reminder', { remindAfterHours: 1, stopAfterHours: 2.5 }, { restartable: true })
  add('reminder', { remindAfterHours: 1, stopAfterHours: 2.5 }, { restartable: true })
  for (const hours of [0.5, 1, 1.5, 2]) add('stop-after', { stopAfterHours: hours }, { restartable: true })
  add('user-stop', {}, { userStopAfterMin: 60 })
  add('user-stop', {}, { userStopAfterMin: 75 })
  return plan
}

/** "HH:MM" local time `minutes` after `at`, rounded up to the next whole minute. */
export function localTimeAfter(at: number, minutes: number): { text: string; at: number } {
  const when = new Date(at + minutes * 60_000)
  if (when.getSeconds() > 0 || when.getMilliseconds() > 0) when.setMinutes(when.getMinutes() + 1, 0, 0)
  return {
    text: `${String(when.getHours()).padStart(2, '0')}:${String(when.getMinutes()).padStart(2, '0')}`,
    at: when.getTime()
  }
}
