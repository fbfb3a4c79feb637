import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Instance } from '../../shared/api'
import { ManualClock } from '../../shared/clock'
import type { AppNotification, InstancesSnapshot, Result, Settings } from '../../shared/contract'
import type { CostSnapshot, GuardRules } from '../../shared/contract-cost'
import { NO_RULES } from '../../shared/guard-rules'
import { EventHub } from '../event-hub'
import { DEFAULT_SETTINGS } from '../settings/settings-schema'
import { makeInstance } from '../../shared/testing/instance'
import { CostGuard, READINGS_LOOK_DELAY_MS } from './cost-guard'
import { FIRST_PROBE_DELAY_MS, ProbeUnavailable, type GpuRunner } from './gpu-probe'
import { GuardStore } from './guard-store'

const MIN = 60_000
const HOUR = 60 * MIN
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

let dir: string
const guards: CostGuard[] = []
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cost-guard-'))
})
afterEach(async () => {
  for (const guard of guards.splice(0)) {
    guard.dispose()
    await guard.flushed()
  }
  await rm(dir, { recursive: true, force: true })
})

const START = Date.UTC(2026, 0, 1, 9)

function running(id: string, status = 'Running', createAtUnixMs = START): Instance {
  const instance = makeInstance({
    id,
    name: `train-${id}`,
    status,
    createdAt: createAtUnixMs,
    nodePorts: [{ port: 22, nodePort: 30022, address: '10.0.0.9' }]
  })
  instance.instanceSpecInfo.instanceBillingInfo.price = 2
  return instance
}

/**
 * A guard against fakes: a watcher snapshot the test sets, a GPU that answers what the test says
 * (or a probe that fails), a stop command that records and answers, and the notifications.
 */
class Rig {
  clock: ManualClock
  instances: Instance[] = []
  utilization: number | 'down' = 0
  stops: string[] = []
  stopAnswer: () => Result<{ instanceId: string }> = () => ({ ok: true, value: { instanceId: '' } })
  notices: AppNotification[] = []
  costs: CostSnapshot[] = []
  scope: string | undefined = 'sandbox/demo'
  settings: Settings = structuredClone(DEFAULT_SETTINGS)
  guard: CostGuard
  hub = new EventHub()
  private counter = 0

  constructor(clock = new ManualClock(START)) {
    this.clock = clock
    // No rules unless a test sets them (one test checks the defaults).
    this.settings.costGuard.defaults = NO_RULES
    this.guard = this.make()
  }

  make(): CostGuard {
    const runner: GpuRunner = {
      run: async () => {
        if (this.utilization === 'down') throw new ProbeUnavailable('connection refused', false)
        return { stdout: `${this.utilization}, 1024, 81920\n`, exitCode: 0 }
      }
    }
    this.hub = new EventHub()
    const guard = new CostGuard({
      clock: this.clock,
      settings: { get: () => this.settings },
      store: new GuardStore(dir, () => this.clock.now()),
      scope: () => this.scope,
      instances: { snapshot: (): InstancesSnapshot => ({ instances: this.instances, fetchedAt: this.clock.now(), mode: 'steady' }) },
      runner,
      stop: async (instanceId) => {
        this.stops.push(instanceId)
        const answer = this.stopAnswer()
        if (answer.ok)
          this.instances = this.instances.map((i) => (i.instanceMetadata.instanceId === instanceId ? running(instanceId, 'Stopping') : i))
        return answer
      },
      notify: { deliver: (n) => void this.notices.push(n), id: (kind, id) => `${kind}-${id}-${++this.counter}` },
      emit: (event, payload) => {
        if (event === 'cost') this.costs.push(payload as CostSnapshot)
      },
      events: this.hub
    })
    guards.push(guard)
    return guard
  }

  show(...instances: Instance[]): void {
    this.instances = instances
    this.listed()
  }

  /** The watcher's list, as the hub tells it. */
  listed(): void {
    this.hub.emit('instances', { instances: this.instances, fetchedAt: this.clock.now(), mode: 'steady' })
  }

  async pass(ms: number): Promise<void> {
    await this.clock.advanceAsync(ms, settle)
  }

  titles(): string[] {
    return this.notices.map((n) => n.title)
  }

  rules(rules: Partial<GuardRules>, id = 'a'): void {
    this.guard.setRules(id, { ...NO_RULES, ...rules })
  }
}

describe('CostGuard', () => {
  it('stop when idle: a countdown with Keep running, then the stop through the Stop command, then why', async () => {
    const rig = new Rig()
    rig.show(running('a'))
    rig.rules({ idle: { belowPercent: 10, forMinutes: 2 } })
    // The reading that completes two idle minutes, then the look it brings.
    await rig.pass(FIRST_PROBE_DELAY_MS + 2 * MIN + READINGS_LOOK_DELAY_MS)
    const countdown = rig.notices.at(-1)!
    expect(countdown).toMatchObject({
      kind: 'countdown',
      title: '«train-a» stops in 5 min',
      instanceId: 'a',
      actions: [
        { id: 'keep-running', label: 'Keep running' },
        { id: 'stop-now', label: 'Stop now' }
      ]
    })
    expect(countdown.body).toMatch(/because its GPUs were idle for 2 min \(every GPU below 10 %\)/)
    expect(rig.guard.snapshot().instances[0]!.countdown).toMatchObject({ rule: 'idle' })
    await rig.pass(5 * MIN - 1)
    expect(rig.stops).toEqual([])
    await rig.pass(MIN)
    expect(rig.stops).toEqual(['a'])
    expect(rig.notices.at(-1)).toMatchObject({ kind: 'auto-stop', title: 'Cloud Tray stopped «train-a»' })
    expect(rig.notices.at(-1)!.body).toMatch(/because its GPUs were idle for 2 min/)
    expect(rig.stops).toEqual(['a'])
  })

  it('remembers which stops it made, across a restart, until the instance is no longer listed (#24: not "at your request")', async () => {
    const rig = new Rig()
    rig.show(running('a'), running('b'))
    rig.rules({ stopAfterHours: 1 })
    await rig.pass(HOUR + 5 * MIN + MIN)
    expect(rig.stops).toEqual(['a'])
    const stop = { instanceId: 'a', at: expect.any(Number), reason: 'it has run for 1 h' }
    expect(rig.guard.snapshot().stops).toEqual([stop])
    // The window hears it at once, not at the next look.
    expect(rig.costs.at(-1)!.stops).toEqual([stop])
    rig.show(running('a', 'Stopped'), running('b'))
    expect(rig.guard.snapshot().stops).toEqual([stop])

    await rig.guard.flushed()
    const again = rig.make()
    await again.load()
    rig.listed()
    expect(again.snapshot().stops).toEqual([stop])
    // Deleted for good: nothing left to explain.
    rig.show(running('b'))
    expect(again.snapshot().stops).toBeUndefined()
  })

  it('"Keep running" during the countdown: it stays up', async () => {
    const rig = new Rig()
    rig.show(running('a'))
    rig.rules({ idle: { belowPercent: 10, forMinutes: 2 } })
    // The reading that completes two idle minutes, then the look it brings.
    await rig.pass(FIRST_PROBE_DELAY_MS + 2 * MIN + READINGS_LOOK_DELAY_MS)
    expect(rig.guard.snapshot().instances[0]!.countdown).toBeDefined()
    const after = rig.guard.keepRunning('a')
    expect(after.instances[0]!.countdown).toBeUndefined()
    expect(after.instances[0]!.keepRunningUntil).toBe(rig.clock.now() + 2 * HOUR)
    await rig.pass(HOUR)
    expect(rig.stops).toEqual([])
  })

  it('never while a GPU is busy, and a missed probe is never idle', async () => {
    const rig = new Rig()
    rig.show(running('a'))
    rig.rules({ idle: { belowPercent: 10, forMinutes: 2 } })
    rig.utilization = 50
    await rig.pass(30 * MIN)
    rig.utilization = 'down'
    await rig.pass(30 * MIN)
    expect(rig.notices).toEqual([])
    const gpu = rig.guard.snapshot().instances[0]!.gpu
    expect(gpu).toMatchObject({ state: 'unavailable', reason: 'connection refused' })
    expect(rig.guard.snapshot().instances[0]!.idleBlockedBy).toBe('connection refused')
  })

  it('a restart during a countdown starts it again: never stopped early', async () => {
    const rig = new Rig()
    rig.show(running('a'))
    rig.rules({ stopAfterHours: 1 })
    await rig.pass(HOUR)
    expect(rig.notices.map((n) => n.kind)).toEqual(['countdown'])
    await rig.pass(4 * MIN)
    rig.guard.dispose()
    await rig.guard.flushed()
    // The app was closed for 20 minutes, well past the countdown's end.
    await rig.pass(20 * MIN)
    rig.guard = rig.make()
    await rig.guard.load()
    rig.listed()
    expect(rig.notices.at(-1)!.body).toMatch(/^Cloud Tray was restarted, so the notice starts again/)
    expect(rig.notices.at(-1)!.title).toBe('«train-a» stops in 5 min')
    await rig.pass(5 * MIN - 1)
    expect(rig.stops).toEqual([])
    await rig.pass(1)
    expect(rig.stops).toEqual(['a'])
  })

  it('a rule on an instance that stopped by itself is cleared', async () => {
    const rig = new Rig()
    rig.show(running('a'))
    rig.rules({ stopAfterHours: 1, remindAfterHours: 1 })
    await rig.pass(HOUR)
    expect(rig.guard.snapshot().instances[0]!.countdown).toBeDefined()
    rig.show(running('a', 'Stopped'))
    await rig.pass(10 * HOUR)
    expect(rig.stops).toEqual([])
    expect(rig.guard.snapshot().instances).toEqual([])
    expect(() => rig.guard.keepRunning('a')).toThrow(/not running any more/)
    expect(rig.notices.map((n) => n.kind)).toEqual(['reminder', 'countdown'])
    // Started again elsewhere (the console): a new run with the defaults, nothing of the old one.
    rig.show(running('a'))
    await rig.pass(30 * 60_000)
    expect(rig.stops).toEqual([])
    expect(rig.guard.snapshot().instances[0]).toMatchObject({ rules: NO_RULES, ruleWords: [] })
    expect(rig.guard.snapshot().instances[0]!.countdown).toBeUndefined()
    expect(rig.notices.map((n) => n.kind)).toEqual(['reminder', 'countdown'])
  })

  it('a new instance starts with the defaults from Settings; the reminder comes once per period with its choices', async () => {
    const rig = new Rig()
    rig.settings.costGuard.defaults = { ...NO_RULES, remindAfterHours: 3 }
    rig.show(running('a'))
    expect(rig.guard.snapshot().instances[0]!.ruleWords).toEqual(['reminds every 3 h running'])
    await rig.pass(7 * HOUR)
    expect(rig.notices.map((n) => n.title)).toEqual(['«train-a» has been running for 3 h', '«train-a» has been running for 6 h'])
    expect(rig.notices[0]!.actions).toEqual([
      { id: 'stop-now', label: 'Stop now' },
      { id: 'keep-running', label: 'Keep running for 2 h' }
    ])
    expect(rig.notices[0]!.body).toBe(
      'It is still costing money: ≈ $6.00 so far at $2.00/h (an estimate). Stop it if you are done with it.'
    )
  })

  it('an idle rule of hours acts after those hours (the evidence goes back as far as the longest setting)', async () => {
    const rig = new Rig()
    rig.show(running('a'))
    rig.rules({ idle: { belowPercent: 10, forMinutes: 180 } })
    await rig.pass(FIRST_PROBE_DELAY_MS + 179 * MIN + READINGS_LOOK_DELAY_MS)
    expect(rig.titles()).toEqual([])
    await rig.pass(MIN)
    expect(rig.titles()).toEqual(['«train-a» stops in 5 min'])
  })

  it('a refused stop says so once and is tried again every minute', async () => {
    const rig = new Rig()
    rig.show(running('a'))
    rig.rules({ stopAfterHours: 1 })
    rig.stopAnswer = () => ({ ok: false, error: { kind: 'server', message: 'The cloud is not answering.' } })
    await rig.pass(HOUR + 5 * MIN)
    await rig.pass(3 * MIN)
    expect(rig.stops).toEqual(['a', 'a', 'a', 'a'])
    expect(rig.titles()).toEqual(['«train-a» stops in 5 min', 'Could not stop «train-a»'])
    rig.stopAnswer = () => ({ ok: true, value: { instanceId: 'a' } })
    await rig.pass(MIN)
    expect(rig.titles().at(-1)).toBe('Cloud Tray stopped «train-a»')
  })

  it('a stop whose answer was lost says nothing if it happened, and says so only when the retry fails too (the soak found it)', async () => {
    const lost = {
      ok: false as const,
      error: { kind: 'network' as const, message: 'The connection was cut off before the answer arrived.' }
    }
    // Carried out, answer lost: the next look sees it stopping, and no one is told it failed.
    const carried = new Rig()
    carried.show(running('a'))
    carried.rules({ stopAfterHours: 1 })
    carried.stopAnswer = () => {
      carried.instances = [running('a', 'Stopping')]
      return lost
    }
    await carried.pass(HOUR + 5 * MIN)
    carried.listed()
    await carried.pass(3 * MIN)
    expect(carried.stops).toEqual(['a'])
    expect(carried.titles()).toEqual(['«train-a» stops in 5 min'])
    // Not carried out: the retry a minute later fails too, and then it is said once.
    const dropped = new Rig()
    dropped.show(running('a'))
    dropped.rules({ stopAfterHours: 1 })
    dropped.stopAnswer = () => lost
    await dropped.pass(HOUR + 5 * MIN)
    expect(dropped.titles()).toEqual(['«train-a» stops in 5 min'])
    await dropped.pass(2 * MIN)
    expect(dropped.titles()).toEqual(['«train-a» stops in 5 min', 'Could not stop «train-a»'])
  })

  it('the meter: cost so far from the run start, the burn rate of everything billed, seen starts', async () => {
    const rig = new Rig()
    const start = rig.clock.now()
    rig.show(running('a', 'Running', start - 3 * HOUR), running('b', 'Stopped', start - HOUR), running('c', 'Initializing', start))
    const first = rig.guard.snapshot()
    expect(first.burnRatePerHour).toBe(4)
    expect(first.billedCount).toBe(2)
    expect(first.runway).toBeUndefined()
    expect(first.instances.find((i) => i.instanceId === 'a')!.meter).toMatchObject({ costSoFar: 6, runStartSource: 'created' })
    // b comes back (Restarting): its run starts when the app saw it.
    await rig.pass(HOUR)
    rig.show(running('a', 'Running', start - 3 * HOUR), running('b', 'Restarting', start - HOUR), running('c', 'Running', start))
    const later = rig.guard.snapshot().instances.find((i) => i.instanceId === 'b')!
    expect(later.meter).toMatchObject({ runStartSource: 'seen', runStartedAt: rig.clock.now(), costSoFar: 0 })
    expect(rig.guard.snapshot().burnRatePerHour).toBe(6)
  })

  it('keeps each account’s rules apart', async () => {
    const rig = new Rig()
    rig.show(running('a'))
    rig.rules({ stopAfterHours: 5 })
    rig.scope = 'sandbox/other'
    rig.show(running('z'))
    expect(rig.guard.snapshot().instances.map((i) => i.instanceId)).toEqual(['z'])
    rig.scope = 'sandbox/demo'
    rig.show(running('a'))
    expect(rig.guard.snapshot().instances[0]!.rules.stopAfterHours).toBe(5)
  })

  it('Quit offers only when asked to, and stops through the Stop command', async () => {
    const rig = new Rig()
    rig.show(running('a'), running('b', 'Stopping'), running('c', 'Stopped'))
    expect(rig.guard.quitOffer()).toBeNull()
    rig.settings.costGuard.offerStopOnQuit = true
    expect(rig.guard.quitOffer()).toEqual({ instances: [{ instanceId: 'a', name: 'train-a', hourlyRate: 2 }], burnRatePerHour: 2 })
    expect(await rig.guard.stopAll()).toEqual({ stopped: ['a'], failed: [] })
    expect(rig.stops).toEqual(['a'])
  })
})
