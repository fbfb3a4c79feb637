import { describe, expect, it } from 'vitest'
import type { Instance, UnreadableInstance } from '../../shared/api'
import { ManualClock, flushAsync } from '../../shared/clock'
import type { EventSink } from '../core-types'
import type { ErrorInfo, EventName, InstancesSnapshot, StuckStart, Transition, WatchHealth } from '../../shared/contract'
import { makeInstance } from '../../shared/testing/instance'
import { Watcher } from './watcher'

class Fail extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message)
  }
}

function rig(listInstances: () => Promise<Instance[]>, unreadable: UnreadableInstance[] = []) {
  const clock = new ManualClock()
  const list = async () => ({ instances: await listInstances(), unreadable })
  const snapshots: InstancesSnapshot[] = []
  const transitions: Transition[][] = []
  const health: WatchHealth[] = []
  const stuck: StuckStart[][] = []
  let notLoggedIn = 0
  const watcher = new Watcher({
    clock,
    list,
    intervals: () => ({ fastMs: 2_500, steadyMs: 30_000 }),
    toErrorInfo: (e) => (e instanceof Fail ? e.info : { kind: 'internal', message: String(e) }),
    random: () => 0.5,
    emit: ((event: EventName, payload: unknown) => {
      if (event === 'instances') snapshots.push(payload as InstancesSnapshot)
      else if (event === 'transitions') transitions.push(payload as Transition[])
      else if (event === 'watch.health') health.push(payload as WatchHealth)
    }) as EventSink,
    onNotLoggedIn: () => void notLoggedIn++,
    stuckAfterMs: () => 15 * 60_000,
    onStuck: (s) => void stuck.push(s)
  })
  return { clock, watcher, snapshots, transitions, health, stuck, notLoggedIn: () => notLoggedIn }
}

describe('Watcher', () => {
  it('never runs two polls at once, however often it is asked', async () => {
    let active = 0
    let maxActive = 0
    let calls = 0
    const releases: (() => void)[] = []
    const r = rig(async () => {
      calls++
      active++
      maxActive = Math.max(maxActive, active)
      await new Promise<void>((resolve) => releases.push(resolve))
      active--
      return []
    })
    r.watcher.started(false) // poll 1 starts
    const waits = [r.watcher.pollNow(), r.watcher.pollNow()]
    r.watcher.focus()
    r.watcher.online()
    r.watcher.actionHappened()
    r.clock.advance(60_000) // any timer firing now must not start a second poll
    await flushAsync()
    expect(calls).toBe(1)
    releases.shift()!()
    await flushAsync()
    // Every request made during poll 1 is served by one poll after it.
    expect(calls).toBe(2)
    expect(maxActive).toBe(1)
    releases.shift()!()
    await Promise.all(waits)
    expect(maxActive).toBe(1)
    expect(calls).toBe(2)
  })

  it('steady at 30 s, fast while something transitions, paused while signed out or asleep', async () => {
    let status = 'Running'
    let calls = 0
    const r = rig(async () => {
      calls++
      return [makeInstance({ id: 'a', name: 'alpha', status })]
    })
    expect(r.watcher.snapshot().mode).toBe('paused')
    r.watcher.started(false)
    await r.clock.advanceAsync(0)
    expect(r.watcher.snapshot()).toMatchObject({ mode: 'steady', nextPollAt: r.clock.now() + 30_000 })
    status = 'Stopping'
    await r.watcher.pollNow()
    expect(r.watcher.snapshot().mode).toBe('fast')
    expect(r.transitions).toEqual([[{ instanceId: 'a', name: 'alpha', from: 'Running', to: 'Stopping' }]])
    const before = calls
    await r.clock.advanceAsync(10_000)
    expect(calls - before).toBe(4) // every 2.5 s
    r.watcher.pause('asleep')
    await r.clock.advanceAsync(600_000)
    expect(calls - before).toBe(4)
    expect(r.watcher.snapshot().mode).toBe('paused')
    r.watcher.resume('asleep') // wake: polls at once
    await flushAsync()
    expect(calls - before).toBe(5)
    r.watcher.ending()
    await r.clock.advanceAsync(600_000)
    expect(calls - before).toBe(5)
    expect(r.watcher.snapshot().instances).toEqual([])
  })

  it('the first snapshot after sign-in emits no transitions', async () => {
    const r = rig(async () => [makeInstance({ id: 'a', name: 'alpha' })])
    r.watcher.started(false)
    await r.clock.advanceAsync(0)
    expect(r.snapshots.at(-1)!.instances).toHaveLength(1)
    expect(r.transitions).toEqual([])
  })

  it('backs off on failures with one health event per distinct error, and recovers', async () => {
    let mode: 'down' | 'slow' | 'up' = 'down'
    let calls = 0
    const r = rig(async () => {
      calls++
      if (mode === 'down') throw new Fail({ kind: 'network', message: 'Cannot reach the cloud.' })
      if (mode === 'slow') throw new Fail({ kind: 'server', message: 'The cloud had a problem.' })
      return []
    })
    r.watcher.started(false)
    await r.clock.advanceAsync(0)
    const delays: number[] = []
    for (let i = 0; i < 8; i++) {
      const at = r.watcher.snapshot().nextPollAt!
      delays.push(at - r.clock.now())
      expect(r.watcher.snapshot().mode).toBe('backoff')
      await r.clock.advanceAsync(at - r.clock.now())
    }
    expect(delays).toEqual([3_750, 7_500, 15_000, 30_000, 60_000, 120_000, 225_000, 225_000])
    expect(r.health).toEqual([
      { state: 'failing', error: { kind: 'network', message: 'Cannot reach the cloud.' }, retryAt: expect.any(Number) }
    ])
    mode = 'slow'
    await r.clock.advanceAsync(r.watcher.snapshot().nextPollAt! - r.clock.now())
    expect(r.health.map((h) => h.error?.kind)).toEqual(['network', 'server'])
    mode = 'up'
    r.watcher.online() // coming back online tries at once, even mid-backoff
    await flushAsync()
    expect(r.health.at(-1)).toEqual({ state: 'ok' })
    expect(r.watcher.snapshot().mode).toBe('steady')
    expect(calls).toBe(11) // first + 8 backoff steps + the server error + the online retry
  })

  it('not-logged-in pauses the watcher and reports it once', async () => {
    const r = rig(async () => {
      throw new Fail({ kind: 'not-logged-in', message: 'Your session has ended.' })
    })
    r.watcher.started(false)
    await r.clock.advanceAsync(600_000)
    expect(r.notLoggedIn()).toBe(1)
    expect(r.watcher.snapshot().mode).toBe('paused')
    expect(r.health).toEqual([])
  })

  it('drops the answer of a poll that started before sign-out', async () => {
    let release: (() => void) | undefined
    const r = rig(
      () =>
        new Promise<Instance[]>((resolve) => {
          release = () => resolve([makeInstance({ id: 'a', name: 'alpha' })])
        })
    )
    r.watcher.started(false)
    r.watcher.ending()
    release!()
    await flushAsync()
    expect(r.watcher.snapshot().instances).toEqual([])
  })

  it('a sign-in while an old poll runs still gets its own first poll at once', async () => {
    const releases: (() => void)[] = []
    let calls = 0
    const r = rig(
      () =>
        new Promise<Instance[]>((resolve) => {
          calls++
          const n = calls
          releases.push(() => resolve([makeInstance({ id: 'a', name: `poll ${n}` })]))
        })
    )
    r.watcher.started(false)
    r.watcher.ending()
    r.watcher.started(false) // the first poll is still running, for the old session
    expect(calls).toBe(1)
    releases.shift()!()
    await flushAsync()
    expect(calls).toBe(2) // at once, not after 30 s
    releases.shift()!()
    await flushAsync()
    expect(r.watcher.snapshot().instances.map((i) => i.instanceSpecInfo.name)).toEqual(['poll 2'])
  })

  it('#15: a start in back-off is told once, listed as stuck, and no longer keeps the poller fast', async () => {
    let runtime: Partial<Instance['instanceRuntimeInfo']> = {
      diagnosisReason: 'BackOff',
      diagnosisMessage: 'Back-off restarting failed container download-image'
    }
    let status = 'Starting'
    const r = rig(async () => [makeInstance({ id: 'p', name: 'puller', status, nodePorts: [], runtime })])
    r.watcher.started(false)
    await r.clock.advanceAsync(0)
    expect(r.stuck).toEqual([
      [
        expect.objectContaining({
          instanceId: 'p',
          reason: 'back-off',
          diagnosisReason: 'BackOff',
          diagnosisMessage: expect.stringMatching(/download-image/)
        })
      ]
    ])
    expect(r.watcher.snapshot()).toMatchObject({ mode: 'steady', stuck: [{ instanceId: 'p', reason: 'back-off' }] })
    await r.clock.advanceAsync(3 * 30_000)
    expect(r.stuck).toHaveLength(1)
    // It moves on, then sticks again: a new episode is told again.
    status = 'Running'
    runtime = {}
    await r.watcher.pollNow()
    expect(r.watcher.snapshot().stuck).toEqual([])
    status = 'Starting'
    runtime = { diagnosisReason: 'ImagePullBackOff' }
    await r.watcher.pollNow()
    expect(r.stuck).toHaveLength(2)
  })

  it("#15: a start with no progress for the user's threshold counts as stuck then, not before", async () => {
    const r = rig(async () => [makeInstance({ id: 'i', name: 'slow', status: 'Initializing', nodePorts: [] })])
    r.watcher.started(false)
    await r.clock.advanceAsync(0)
    expect(r.watcher.snapshot().mode).toBe('fast')
    await r.clock.advanceAsync(14 * 60_000)
    expect(r.stuck).toEqual([])
    expect(r.watcher.snapshot().mode).toBe('fast')
    await r.clock.advanceAsync(60_000)
    expect(r.stuck).toEqual([[expect.objectContaining({ instanceId: 'i', reason: 'no-progress', status: 'Initializing' })]])
    expect(r.watcher.snapshot().mode).toBe('steady')
  })

  it('#15: rows that could not be read are kept beside the list', async () => {
    const unreadable = [{ instanceId: 'bad', problem: 'instanceRuntimeInfo.status is missing' }]
    const r = rig(async () => [makeInstance({ id: 'a', name: 'alpha', status: 'Running', nodePorts: [] })], unreadable)
    r.watcher.started(false)
    await r.clock.advanceAsync(0)
    expect(r.watcher.snapshot()).toMatchObject({ instances: [{ instanceMetadata: { instanceId: 'a' } }], unreadable })
  })
})
