import { describe, expect, it } from 'vitest'
import { ManualClock } from '../shared/clock'
import { EventHub } from './event-hub'
import { REPEAT_LOG_MS, Supervisor, errorData, guardMethods, type PartProblem } from './supervisor'

function rig() {
  const clock = new ManualClock()
  const logged: { message: string; data: unknown }[] = []
  const shown: PartProblem[] = []
  const cleared: string[] = []
  const supervisor = new Supervisor({
    now: () => clock.now(),
    log: { error: (message, data) => void logged.push({ message, data }) },
    raised: (problem) => void shown.push(problem),
    cleared: (partId) => void cleared.push(partId)
  })
  return { clock, logged, shown, cleared, supervisor }
}
const words = (short: string) => () => ({ message: `${short}: the rest goes on.`, short })

describe('Supervisor', () => {
  it('a part’s listeners on the hub run under its guard: its throw is its own, the parts after it still hear', () => {
    const { supervisor, shown } = rig()
    const hub = new EventHub()
    const tray = supervisor.part('tray', words('Tray menu out of date'))
    tray.feed(hub).on('balance', () => {
      throw new RangeError('Maximum call stack size exceeded')
    })
    const heard: string[] = []
    hub.on('balance', () => void heard.push('guard'))
    expect(() => hub.emit('balance', { status: 'unknown' } as never)).not.toThrow()
    expect(heard).toEqual(['guard'])
    expect(shown.map((p) => p.partId)).toEqual(['tray'])
  })

  it('a part’s throw is caught, logged, shown once, and healthy again when it runs through', () => {
    const { supervisor, logged, shown, cleared } = rig()
    const tray = supervisor.part('tray', words('Tray menu out of date'))
    let fail = true
    const update = tray.listener(() => {
      if (fail) throw new RangeError('Maximum call stack size exceeded')
    })
    expect(() => update()).not.toThrow()
    update()
    expect(shown).toEqual([{ partId: 'tray', message: 'Tray menu out of date: the rest goes on.', short: 'Tray menu out of date' }])
    expect(supervisor.problems()).toHaveLength(1)
    expect(supervisor.failures).toBe(2)
    expect(logged).toHaveLength(1)
    expect(logged[0]!.data).toMatchObject({ error: { name: 'RangeError', message: 'Maximum call stack size exceeded' } })
    fail = false
    update()
    expect(cleared).toEqual(['tray'])
    expect(supervisor.problems()).toEqual([])
  })

  it('one part failing leaves the others running and healthy', () => {
    const { supervisor } = rig()
    const gpu = supervisor.part('gpu:a', words('GPU activity for «a» unavailable'))
    const rules = supervisor.part('cost:b', words('Rules of «b» not checked'))
    const ran: string[] = []
    gpu.run(() => {
      throw new Error('bad readings')
    })
    rules.run(() => ran.push('b'))
    expect(ran).toEqual(['b'])
    expect(supervisor.problems().map((problem) => problem.partId)).toEqual(['gpu:a'])
  })

  it('a rejected promise is a failure too; its value passes through when it resolves', async () => {
    const { supervisor, shown } = rig()
    const part = supervisor.part('catalog', words('Instance types may be out of date'))
    await part.run(() => Promise.reject(new Error('no')))
    expect(shown).toHaveLength(1)
    expect(await part.run(() => Promise.resolve(42))).toBe(42)
    expect(supervisor.problems()).toEqual([])
  })

  it('timers of a part’s clock run under its guard', () => {
    const { supervisor, clock, shown } = rig()
    const part = supervisor.part('watch', words('Instance list may be out of date'))
    const guarded = part.clock(clock)
    const ran: string[] = []
    guarded.setTimeout(() => {
      throw new Error('poll broke')
    }, 10)
    guarded.setTimeout(() => ran.push('next'), 20)
    expect(() => clock.advance(30)).not.toThrow()
    expect(ran).toEqual(['next'])
    expect(shown.map((problem) => problem.partId)).toEqual(['watch'])
  })

  it('a part failing again and again is logged once a minute, with the repeats counted', () => {
    const { supervisor, clock, logged } = rig()
    const part = supervisor.part('gpu:a', words('GPU activity for «a» unavailable'))
    for (let second = 0; second < 90; second++) {
      part.fail(new Error(`again ${second}`))
      clock.advance(1_000)
    }
    expect(logged).toHaveLength(2)
    expect(logged[1]!.data).toMatchObject({ repeatsNotLogged: REPEAT_LOG_MS / 1_000 - 1 })
  })

  it('a forgotten part is no longer shown', () => {
    const { supervisor, cleared } = rig()
    supervisor.part('gpu:a', words('GPU activity for «a» unavailable')).fail(new Error('x'))
    supervisor.forget('gpu:a')
    expect(cleared).toEqual(['gpu:a'])
    expect(supervisor.problems()).toEqual([])
  })

  it('what is told while telling (the tray failing as it shows a problem) waits its turn, and never recurses', () => {
    const clock = new ManualClock()
    const shown: string[] = []
    const tray = { update: (): void => void 0 }
    const supervisor = new Supervisor({
      now: () => clock.now(),
      raised: (problem) => {
        shown.push(problem.partId)
        tray.update()
      }
    })
    const trayPart = supervisor.part('tray', words('Tray menu out of date'))
    tray.update = () => {
      throw new Error('cannot draw')
    }
    guardMethods(trayPart, tray, ['update'])
    supervisor.part('watch', words('Instance list may be out of date')).fail(new Error('x'))
    expect(shown).toEqual(['watch', 'tray'])
  })

  it('guardMethods: the methods never throw into their caller and keep their results', () => {
    const { supervisor } = rig()
    class Presenter {
      count = 0
      update(): number {
        if (this.count++ === 0) throw new Error('first time')
        return this.count
      }
    }
    const presenter = guardMethods(supervisor.part('tray', words('Tray menu out of date')), new Presenter(), ['update'])
    expect(presenter.update()).toBeUndefined()
    expect(presenter.update()).toBe(2)
  })

  it('errorData keeps a bounded name, message and stack of anything thrown', () => {
    const data = errorData(new Error('x'.repeat(10_000)))
    expect(data.message.length).toBeLessThanOrEqual(1_000)
    expect(errorData('plain')).toEqual({ name: 'string', message: 'plain' })
    expect(errorData(Object.create(null))).toEqual({ name: 'object', message: 'an unprintable value' })
  })
})
