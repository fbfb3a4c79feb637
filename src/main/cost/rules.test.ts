import { describe, expect, it } from 'vitest'
import type { GpuSample, GuardRules } from '../../shared/contract-cost'
import { NO_RULES } from '../../shared/guard-rules'
import { ManualClock } from '../../shared/clock'
import { idleEvidence } from './idle'
import {
  evaluate,
  initialState,
  jobDoneCountdown,
  keepRunning,
  nextTimeOfDay,
  resumeCountdown,
  stopFailed,
  withRules,
  type RuleEffect,
  type RuleFacts,
  type RuleState
} from './rules'

const MIN = 60_000
const HOUR = 60 * MIN
const COUNTDOWN = 5 * MIN

/**
 * One instance under the engine on a ManualClock: probes a minute apart (utilisation per GPU, or
 * null for a missed probe), an evaluation after each, and every effect recorded with its minute.
 */
class Run {
  readonly clock = new ManualClock(Date.UTC(2026, 0, 1, 9))
  readonly runStartedAt = this.clock.now()
  state: RuleState
  readonly samples: GpuSample[] = []
  readonly effects: { minute: number; effect: RuleEffect }[] = []
  stoppable = true
  planEndsAt: number | undefined

  constructor(rules: Partial<GuardRules>) {
    this.state = initialState({ ...NO_RULES, ...rules }, this.clock.now())
  }

  get minute(): number {
    return Math.round((this.clock.now() - this.runStartedAt) / MIN)
  }

  facts(): RuleFacts {
    const idle = this.state.rules.idle
    return {
      now: this.clock.now(),
      runStartedAt: this.runStartedAt,
      stoppable: this.stoppable,
      countdownMs: COUNTDOWN,
      ...(this.planEndsAt !== undefined ? { planEndsAt: this.planEndsAt } : {}),
      ...(idle ? { idle: idleEvidence(this.samples, idle.belowPercent, this.clock.now()) } : {})
    }
  }

  look(): void {
    const step = evaluate(this.state, this.facts())
    this.state = step.state
    for (const effect of step.effects) this.effects.push({ minute: this.minute, effect })
  }

  /** `minutes` one-minute probes reading `gpus` (null: the probe failed), looking after each. */
  probe(minutes: number, ...gpus: (number | null)[]): void {
    for (let i = 0; i < minutes; i++) {
      this.clock.advance(MIN)
      const failed = gpus.includes(null)
      this.samples.push({
        at: this.clock.now(),
        gpus: failed ? [] : gpus.map((u) => ({ utilization: u, memoryUsedMiB: 0, memoryTotalMiB: 81_920 })),
        ...(failed ? { missed: 'connection refused' } : {})
      })
      this.look()
    }
  }

  kinds(): string[] {
    return this.effects.map(({ minute, effect }) => `${minute}:${effect.kind}`)
  }
}

describe('the idle rule', () => {
  it('starts a countdown after M full minutes with every GPU below X %, and stops when it runs out', () => {
    const run = new Run({ idle: { belowPercent: 10, forMinutes: 30 } })
    run.probe(30, 3, 0)
    expect(run.kinds()).toEqual([]) // samples at 1..30: 29 minutes of evidence
    run.probe(1, 3, 0)
    expect(run.kinds()).toEqual(['31:countdown'])
    expect(run.state.countdown).toMatchObject({ rule: 'idle', endsAt: run.clock.now() + COUNTDOWN })
    expect(run.state.countdown?.reason).toBe('its GPUs were idle for 30 min (every GPU below 10 %)')
    run.probe(4, 3, 0)
    expect(run.kinds()).toEqual(['31:countdown'])
    run.probe(1, 3, 0)
    expect(run.kinds()).toEqual(['31:countdown', '36:stop'])
  })

  it('never starts while any GPU is busy', () => {
    const run = new Run({ idle: { belowPercent: 10, forMinutes: 5 } })
    for (let i = 0; i < 30; i++) run.probe(4, 0, 0, 0, i % 2 === 0 ? 55 : 0)
    // Every 4-minute idle stretch is cut by a busy GPU before 5 full minutes.
    expect(run.effects).toEqual([])
  })

  it('a busy GPU during the countdown cancels it, and the streak starts over', () => {
    const run = new Run({ idle: { belowPercent: 10, forMinutes: 2 } })
    run.probe(3, 0)
    expect(run.kinds()).toEqual(['3:countdown'])
    run.probe(1, 90)
    expect(run.kinds()).toEqual(['3:countdown', '4:countdown-cancelled'])
    expect(run.effects[1]!.effect).toMatchObject({ why: 'a GPU is busy again' })
    run.probe(2, 0)
    expect(run.kinds()).toHaveLength(2)
    run.probe(1, 0)
    expect(run.kinds()).toEqual(['3:countdown', '4:countdown-cancelled', '7:countdown'])
  })

  it('a missed probe (SSH down) never counts as idle: not before, nor during a countdown', () => {
    const run = new Run({ idle: { belowPercent: 10, forMinutes: 3 } })
    // Idle, but every third probe fails: no 3-minute stretch of evidence.
    for (let i = 0; i < 20; i++) {
      run.probe(2, 0)
      run.probe(1, null)
    }
    expect(run.effects).toEqual([])
    run.probe(4, 0)
    expect(run.kinds()).toEqual(['64:countdown'])
    run.probe(1, null)
    expect(run.kinds()).toEqual(['64:countdown', '65:countdown-cancelled'])
    expect(run.state.countdown).toBeUndefined()
    // Probes that stop coming at all are no evidence either: time passes, nothing happens.
    run.clock.advance(HOUR)
    run.look()
    expect(run.kinds()).toHaveLength(2)
  })
})

describe('reminders', () => {
  it('fire once per period of running', () => {
    const run = new Run({ remindAfterHours: 2 })
    for (let minute = 0; minute < 7 * 60; minute += 10) {
      run.clock.advance(10 * MIN)
      run.look()
      run.look() // looking twice at the same moment never repeats one
    }
    expect(run.kinds()).toEqual(['120:remind', '240:remind', '360:remind'])
    expect(run.effects[0]!.effect).toEqual({ kind: 'remind', runningMs: 2 * HOUR })
  })

  it('after a long absence give one reminder, then keep to the periods', () => {
    const run = new Run({ remindAfterHours: 2 })
    run.clock.advance(9 * HOUR)
    run.look()
    run.look()
    expect(run.kinds()).toEqual(['540:remind'])
    expect(run.state.nextReminderAt).toBe(run.runStartedAt + 10 * HOUR)
  })

  it('"Keep running for 2 h" puts the next one 2 hours away, and holds the stop rules as long', () => {
    const run = new Run({ remindAfterHours: 1, stopAfterHours: 1.5 })
    run.clock.advance(HOUR)
    run.look()
    expect(run.kinds()).toEqual(['60:remind'])
    run.state = keepRunning(run.state, run.clock.now())
    for (let i = 0; i < 12; i++) {
      run.clock.advance(10 * MIN)
      run.look()
    }
    // Nothing for 2 hours, although both rules fell due at 120 and 90 minutes.
    expect(run.kinds()).toEqual(['60:remind', '180:remind', '180:countdown'])
  })
})

describe('stop after N hours, and at a time of day', () => {
  it('stop-after counts from the run start; the countdown runs out before the stop', () => {
    const run = new Run({ stopAfterHours: 3 })
    run.clock.advance(3 * HOUR - MIN)
    run.look()
    expect(run.effects).toEqual([])
    const step = evaluate(run.state, { ...run.facts(), now: run.clock.now() })
    expect(step.wakeAt).toBe(run.runStartedAt + 3 * HOUR)
    run.clock.advance(MIN)
    run.look()
    expect(run.kinds()).toEqual(['180:countdown'])
    run.clock.advance(COUNTDOWN)
    run.look()
    expect(run.kinds()).toEqual(['180:countdown', '185:stop'])
    expect(run.effects[1]!.effect).toEqual({ kind: 'stop', rule: 'stop-after', reason: 'it has run for 3 h' })
    // Asked once: nothing more while the stop is under way.
    run.clock.advance(HOUR)
    run.look()
    expect(run.kinds()).toHaveLength(2)
  })

  it('"Keep running" ends the countdown and defers the rule 2 hours', () => {
    const run = new Run({ stopAfterHours: 1 })
    run.clock.advance(HOUR)
    run.look()
    run.clock.advance(2 * MIN)
    run.state = keepRunning(run.state, run.clock.now())
    expect(run.state.countdown).toBeUndefined()
    run.clock.advance(2 * HOUR - MIN)
    run.look()
    expect(run.kinds()).toEqual(['60:countdown'])
    run.clock.advance(MIN)
    run.look()
    expect(run.kinds()).toEqual(['60:countdown', '182:countdown'])
  })

  it('stop-at acts at the first such time after it was set', () => {
    const run = new Run({ stopAtTime: '23:30' })
    const due = nextTimeOfDay(run.clock.now(), '23:30')
    run.clock.advance(due - run.clock.now() - MIN)
    run.look()
    expect(run.effects).toEqual([])
    run.clock.advance(MIN)
    run.look()
    expect(run.effects.map((e) => e.effect)).toEqual([
      { kind: 'countdown', countdown: expect.objectContaining({ rule: 'stop-at', reason: 'you asked for it to stop at 23:30' }) }
    ])
  })

  it.each([
    ['10:15', Date.UTC(2026, 0, 1, 8), 'later today'],
    ['08:00', Date.UTC(2026, 0, 1, 12), 'tomorrow']
  ])('nextTimeOfDay %s (%s)', (time, after) => {
    const next = nextTimeOfDay(after, time)
    const date = new Date(next)
    expect(`${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`).toBe(time)
    expect(next).toBeGreaterThan(after)
    expect(next - after).toBeLessThanOrEqual(24 * HOUR)
  })

  it('a rule turned off ends its countdown; one that cannot be stopped gets none', () => {
    const run = new Run({ stopAfterHours: 1 })
    run.clock.advance(HOUR)
    run.look()
    const changed = withRules(run.state, NO_RULES, run.runStartedAt, run.clock.now())
    expect(changed.effects).toEqual([{ kind: 'countdown-cancelled', rule: 'stop-after', why: 'you changed its rules' }])
    expect(changed.state.countdown).toBeUndefined()

    const stopping = new Run({ stopAfterHours: 1 })
    stopping.stoppable = false
    stopping.clock.advance(2 * HOUR)
    stopping.look()
    expect(stopping.effects).toEqual([])
  })
})

describe('restarts and failures', () => {
  it('a restart during a countdown starts it again: the stop never comes early', () => {
    const run = new Run({ stopAfterHours: 1 })
    run.clock.advance(HOUR)
    run.look()
    run.clock.advance(4 * MIN) // a minute before the stop, the app quits…
    const saved: RuleState = JSON.parse(JSON.stringify(run.state))
    run.clock.advance(10 * MIN) // …and starts again after the countdown would have run out
    const resumed = resumeCountdown(saved, run.clock.now(), COUNTDOWN)
    expect(resumed.resumed).toEqual(expect.objectContaining({ startedAt: run.clock.now(), endsAt: run.clock.now() + COUNTDOWN }))
    run.state = resumed.state
    run.effects.length = 0
    run.look()
    expect(run.effects).toEqual([])
    run.clock.advance(COUNTDOWN - 1)
    run.look()
    expect(run.effects).toEqual([])
    run.clock.advance(1)
    run.look()
    expect(run.kinds()).toEqual(['79:stop'])
  })

  it('a refused stop is tried again a minute later', () => {
    const run = new Run({ stopAfterHours: 1 })
    run.clock.advance(HOUR)
    run.look()
    run.clock.advance(COUNTDOWN)
    run.look()
    run.state = stopFailed(run.state, 'stop-after', 'it has run for 1 h', run.clock.now())
    run.clock.advance(MIN)
    run.look()
    expect(run.kinds()).toEqual(['60:countdown', '65:stop', '66:stop'])
  })
})

describe('the plan warning', () => {
  it('comes once, 15 minutes before the plan ends', () => {
    const run = new Run({ warnBeforePlanEnd: true })
    run.planEndsAt = run.runStartedAt + 24 * HOUR
    const first = evaluate(run.state, run.facts())
    expect(first.wakeAt).toBe(run.planEndsAt - 15 * MIN)
    run.clock.advance(24 * HOUR - 15 * MIN)
    run.look()
    run.clock.advance(MIN)
    run.look()
    expect(run.effects.map((e) => e.effect)).toEqual([{ kind: 'plan-ending', endsAt: run.planEndsAt }])
  })

  it('says nothing once the plan has ended', () => {
    const run = new Run({ warnBeforePlanEnd: true })
    run.planEndsAt = run.runStartedAt + HOUR
    run.clock.advance(2 * HOUR)
    run.look()
    expect(run.effects).toEqual([])
  })
})

describe('a job that ended with “Stop the instance when it ends”', () => {
  const facts = (now: number): RuleFacts => ({ now, runStartedAt: now - HOUR, stoppable: true, countdownMs: COUNTDOWN })

  it('counts down like a rule, with no rule on, and stops when the countdown runs out', () => {
    const start = Date.UTC(2026, 0, 1, 9)
    const asked = jobDoneCountdown(initialState(NO_RULES, start), 'its job ended', start, COUNTDOWN)
    expect(asked.started).toEqual({ rule: 'job-done', reason: 'its job ended', startedAt: start, endsAt: start + COUNTDOWN })
    const waiting = evaluate(asked.state, facts(start + COUNTDOWN - 1))
    expect([waiting.effects, waiting.state.countdown?.rule, waiting.wakeAt]).toEqual([[], 'job-done', start + COUNTDOWN])
    const due = evaluate(waiting.state, facts(start + COUNTDOWN))
    expect(due.effects).toEqual([{ kind: 'stop', rule: 'job-done', reason: 'its job ended' }])
  })

  it('ends with Keep running, and never doubles a countdown already under way', () => {
    const start = Date.UTC(2026, 0, 1, 9)
    const asked = jobDoneCountdown(initialState(NO_RULES, start), 'its job ended', start, COUNTDOWN)
    expect(evaluate(keepRunning(asked.state, start + MIN), facts(start + COUNTDOWN)).effects).toEqual([])
    expect(jobDoneCountdown(asked.state, 'another job ended', start + MIN, COUNTDOWN).started).toBeUndefined()
  })
})
