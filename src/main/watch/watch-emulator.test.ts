/**
 * The watcher inside the core, against the emulator over real sockets: the transitions of
 * create → Running, stop → Stopped, preemption and failure, with the notifications they cause,
 * and backoff while the emulator is down, then recovery.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Transition } from '../../shared/contract'
import { createCoreRig, createRequest, type CoreRig } from '../testing/core-harness'

let rig: CoreRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

const statuses = (r: CoreRig): string[] =>
  r
    .of('transitions')
    .flat()
    .map((t: Transition) => `${t.name}: ${t.from ?? '∅'} → ${t.to ?? '∅'}`)

async function refresh(r: CoreRig): Promise<void> {
  const result = await r.call('instances.refresh')
  if (!result.ok) throw new Error(result.error.message)
}

/**
 * Moves the core's clock to the watcher's next poll (other timers due before it, such as the
 * balance's, run on the way) and waits until that poll has answered.
 */
async function runScheduledPoll(r: CoreRig): Promise<void> {
  const seen = r.events.length
  const due = r.of('instances').at(-1)?.nextPollAt ?? r.clock.nextDueAt()
  if (due === undefined) throw new Error('no poll scheduled')
  r.clock.advance(due - r.clock.now())
  const deadline = Date.now() + 5_000
  while (!r.events.slice(seen).some((e) => e.event === 'instances')) {
    if (Date.now() > deadline) throw new Error('the scheduled poll did not answer')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('watcher against the emulator', () => {
  it('create → Running, then stop → Stopped: transitions, one "ready", no "stopped" for our own stop', async () => {
    rig = await createCoreRig()
    await rig.login()
    await refresh(rig)
    const created = await rig.call('instances.create', { request: createRequest(rig.emulator, 'job') })
    if (!created.ok) throw new Error(created.error.message)
    await refresh(rig)
    expect(rig.of('instances').at(-1)!.mode).toBe('fast')
    rig.emulator.control.advance(4_000)
    await refresh(rig)
    expect(statuses(rig)[0]).toMatch(/^job: ∅ → \w+$/)
    expect(statuses(rig).at(-1)).toMatch(/^job: \w+ → Running$/)
    expect(rig.platform.notifications.map((n) => n.title)).toEqual(['«job» is ready'])

    const stopped = await rig.call('instances.stop', { instanceId: created.value.instanceId })
    expect(stopped.ok).toBe(true)
    await refresh(rig)
    rig.emulator.control.advance(2_000)
    await refresh(rig)
    expect(statuses(rig).at(-1)).toMatch(/^job: .* → Stopped$/)
    expect(rig.platform.notifications.map((n) => n.title)).toEqual(['«job» is ready'])
  })

  it('preemption and failure are announced', async () => {
    rig = await createCoreRig()
    const [spot] = await rig.emulator.control.seedInstances('demo', 1, { name: 'spot', isSpotInstance: true })
    const [doomed] = await rig.emulator.control.seedInstances('demo', 1, { name: 'doomed' })
    await rig.login()
    await refresh(rig)
    expect(rig.of('transitions')).toEqual([]) // first snapshot: no transitions
    rig.emulator.control.preempt(spot!)
    rig.emulator.control.setStatus(doomed!, 'StartingFailed', { diagnosisMessage: 'No GPU capacity left in this region.' })
    await refresh(rig)
    const titles = rig.platform.notifications.map((n) => [n.kind, n.body])
    expect(titles).toContainEqual(['failed', 'No GPU capacity left in this region.'])
    // #26: a spot instance's stop the app did not ask for is a reclaim, said as such (with a relaunch offer).
    expect(titles.some(([kind]) => kind === 'reclaimed')).toBe(true)
    expect(titles.some(([kind]) => kind === 'stopped')).toBe(false)
    expect(rig.platform.trays.at(-1)!.icon).toBe('attention')
  })

  it('backs off while the emulator is down, reports it once, and recovers', async () => {
    rig = await createCoreRig()
    await rig.login()
    await refresh(rig)
    await rig.emulator.control.faults.setDown(true)
    for (let i = 0; i < 4; i++) await runScheduledPoll(rig)
    const modes = rig
      .of('instances')
      .slice(-4)
      .map((s) => s.mode)
    expect(modes).toEqual(['backoff', 'backoff', 'backoff', 'backoff'])
    const health = rig.of('watch.health')
    // One event per distinct error (a cut keep-alive, then "refused"), not one per failed poll.
    expect(health.length).toBeLessThan(4)
    for (const h of health) expect(h).toMatchObject({ state: 'failing', error: { kind: 'network' } })
    const keys = health.map((h) => h.error!.message)
    expect(new Set(keys).size).toBe(keys.length)
    const gaps = rig
      .of('instances')
      .slice(-3)
      .map((s) => s.nextPollAt! - s.fetchedAt!)
    expect(gaps[2]! > gaps[0]!).toBe(true) // growing delays
    await rig.emulator.control.faults.setDown(false)
    await runScheduledPoll(rig)
    expect(rig.of('watch.health').at(-1)).toEqual({ state: 'ok' })
    expect(rig.of('instances').at(-1)!.mode).toBe('steady')
  })
})
