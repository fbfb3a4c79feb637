/**
 * The availability watch (#26) through the core against the emulator, on one ManualClock: one
 * shared catalog read per interval whatever the number of watches, none without a watch or while
 * signed out or asleep, backing off while the API is down; stock set through the emulator's
 * control is noticed at the next read, told with Launch now / Dismiss; "Launch now" when the stock
 * came and went says so; an automatic launch never above its ceiling, exactly one instance even
 * when the create's answer is lost; watches survive a restart.
 */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import type { AppNotification } from '../../shared/contract'
import type { AvailabilitySnapshot, LaunchSpec, StockWatch } from '../../shared/contract-launch'
import { createRequest, type CoreRig } from '../testing/core-harness'
import { coreRigsPerTest } from '../testing/core-rigs'
import { pass, until } from '../testing/emulated-time'
import { STOCK_CHECK_INTERVAL_MS } from './availability'

const FEED = '/resource/user/instance/list'
const H100X8 = 'gpu-h100-sxm-8x'
const MIN = 60_000

const rigs = coreRigsPerTest()

async function signedInRig(): Promise<{ rig: CoreRig; clock: ManualClock; usWest: string; singapore: string }> {
  const { rig, clock } = await rigs.clocked({ bootMs: 2_000, stopMs: 500 })
  await rig.login()
  // The catalog read a sign-in starts in the background.
  await until(async () => {
    const view = await rig.call('catalog.get')
    return view.ok && view.value.catalog !== null && !view.value.refreshing
  })
  const [usWest, singapore] = rig.emulator.control.catalog().regions.map((region) => region.regionId)
  rig.emulator.control.resetRequestCount()
  return { rig, clock, usWest: usWest!, singapore: singapore! }
}

function specFor(r: CoreRig, name: string, region: string): LaunchSpec {
  return { request: createRequest(r.emulator, name, { instanceTypeId: H100X8, region, nodePorts: [8888] }), regions: [region] }
}

async function snapshot(r: CoreRig): Promise<AvailabilitySnapshot> {
  const answer = await r.call('availability.get')
  if (!answer.ok) throw new Error(answer.error.message)
  return answer.value
}

async function watch(r: CoreRig, spec: LaunchSpec, auto: { maxPricePerHour: number; deadline: number } | null = null): Promise<string> {
  const answer = await r.call('availability.watch', {
    target: { instanceTypeId: H100X8, regions: spec.regions, chargeMode: 'perHour' },
    spec,
    auto
  })
  if (!answer.ok) throw new Error(answer.error.message)
  return answer.value.watchId
}

const stockNotices = (r: CoreRig): AppNotification[] => r.platform.notifications.filter((n) => n.kind === 'stock')
const named = (r: CoreRig, name: string) => r.emulator.control.instances('demo').filter((i) => i.instanceSpecInfo.name === name)

describe('the availability watch against the emulator (#26)', () => {
  it('reads the catalog once per interval for all watches, none without one, none while asleep or signed out', async () => {
    const { rig: r, clock, usWest } = await signedInRig()
    await pass(clock, 10 * MIN)
    expect(r.emulator.control.requestCount(FEED)).toBe(0)

    for (let i = 0; i < 20; i++) await watch(r, specFor(r, `job-${i}`, usWest))
    await pass(clock, 30 * MIN)
    const reads = r.emulator.control.requestCount(FEED)
    // The first read comes at once, then one per interval: 31 for 30 minutes, whatever the number of watches.
    expect(reads).toBeGreaterThanOrEqual(30)
    expect(reads).toBeLessThanOrEqual(31)
    expect((await snapshot(r)).checks).toMatchObject({ state: 'watching', intervalMs: STOCK_CHECK_INTERVAL_MS })

    r.emulator.control.resetRequestCount()
    r.core.onSystemEvent('suspend')
    expect((await snapshot(r)).checks.state).toBe('paused')
    await pass(clock, 10 * MIN)
    expect(r.emulator.control.requestCount(FEED)).toBe(0)
    r.core.onSystemEvent('resume')
    await pass(clock, 5_000)
    await until(() => r.emulator.control.requestCount(FEED) === 1)

    await r.call('session.logout')
    r.emulator.control.resetRequestCount()
    await pass(clock, 10 * MIN)
    expect(r.emulator.control.requestCount(FEED)).toBe(0)
  })

  it('backs off from its interval while the API is down, and reads at the interval again once it is back', async () => {
    const { rig: r, clock, usWest } = await signedInRig()
    await watch(r, specFor(r, 'job', usWest))
    await pass(clock, 5_000)
    await r.emulator.control.faults.setDown(true)
    const gaps: number[] = []
    for (let i = 0; i < 4; i++) {
      const before = (await snapshot(r)).checks
      const next = before.nextReadAt!
      await pass(clock, next - clock.now() + 1_000, 1_000)
      await until(async () => (await snapshot(r)).checks.nextReadAt !== next)
      const after = (await snapshot(r)).checks
      expect(after.state).toBe('backoff')
      expect(after.error?.kind).toBe('network')
      gaps.push(after.nextReadAt! - clock.now())
    }
    expect(gaps[3]!).toBeGreaterThan(gaps[0]!)
    expect(gaps[0]!).toBeGreaterThanOrEqual(STOCK_CHECK_INTERVAL_MS / 2)
    await r.emulator.control.faults.setDown(false)
    r.core.onSystemEvent('online')
    await pass(clock, 2_000, 1_000)
    await until(async () => (await snapshot(r)).checks.state === 'watching')
  })

  it('tells when stock comes, with Launch now and Dismiss; Launch now opens the review where the stock is', async () => {
    const { rig: r, clock, usWest, singapore } = await signedInRig()
    // The 8-GPU H100 is in stock in Singapore by default: out everywhere first.
    r.emulator.control.setStock(H100X8, singapore, false)
    const waiting = await watch(r, { ...specFor(r, 'big-job', usWest), regions: [usWest, singapore] })
    await pass(clock, 5 * MIN)
    expect(stockNotices(r)).toEqual([])
    expect((await snapshot(r)).watches.map((w) => w.state)).toEqual(['waiting'])

    r.emulator.control.setStock(H100X8, singapore, true)
    await pass(clock, STOCK_CHECK_INTERVAL_MS)
    await until(() => stockNotices(r).length > 0)
    const [notice] = stockNotices(r)
    expect(notice).toMatchObject({ watchId: waiting, title: expect.stringMatching(/In stock: 8 × H100-SXM-80GB in ap-southeast-1/) })
    expect(notice!.actions?.map((a) => a.label)).toEqual(['Launch now', 'Dismiss'])
    // Told once per episode, not at every read.
    await pass(clock, 5 * MIN)
    expect(stockNotices(r)).toHaveLength(1)

    const now = await r.call('availability.launchNow', { watchId: waiting })
    expect(now.ok && now.value).toMatchObject({
      kind: 'review',
      fill: { review: true, origin: { watchId: waiting }, spec: { request: { region: singapore, instanceTypeId: H100X8 } } }
    })
    // Nothing is created by "Launch now": the user presses Launch in the review.
    expect(named(r, 'big-job')).toEqual([])
  })

  it('a late Launch now says the stock came and went; nothing is launched', async () => {
    const { rig: r, clock, usWest } = await signedInRig()
    const watchId = await watch(r, specFor(r, 'late', usWest))
    await pass(clock, 5_000)
    r.emulator.control.setStock(H100X8, usWest, true)
    await pass(clock, STOCK_CHECK_INTERVAL_MS)
    await until(() => stockNotices(r).length === 1)
    r.emulator.control.setStock(H100X8, usWest, false)
    await pass(clock, STOCK_CHECK_INTERVAL_MS)
    await until(async () => (await snapshot(r)).watches[0]?.cameAndWent !== undefined)
    const [late] = (await snapshot(r)).watches
    expect(late).toMatchObject({ state: 'waiting', cameAndWent: { regionName: 'us-west-1' } })

    // The click: the notice's own path in main (Electron) lands on the form, saying so.
    r.core.notificationActivated(stockNotices(r)[0]!)
    await until(() => r.of('navigate').length > 0)
    const target = r.of('navigate').at(-1)!
    expect(target).toMatchObject({
      view: 'create-instance',
      fill: { review: false, note: expect.stringMatching(/was in stock in us-west-1 from .* until .* and is gone again/) }
    })
    // The window's own path says the same.
    const asked = await r.call('availability.launchNow', { watchId })
    expect(asked.ok && asked.value).toMatchObject({ kind: 'gone', fill: { review: false } })
    expect(named(r, 'late')).toEqual([])
  })

  it('Dismiss ends the watch', async () => {
    const { rig: r, clock, usWest } = await signedInRig()
    await watch(r, specFor(r, 'dismissed', usWest))
    r.emulator.control.setStock(H100X8, usWest, true)
    await pass(clock, 5_000)
    await until(() => stockNotices(r).length === 1)
    const [notice] = stockNotices(r)
    r.core.notificationActivated(notice!, 'dismiss')
    await until(async () => (await snapshot(r)).watches.length === 0)
    expect((await snapshot(r)).checks.state).toBe('off')
  })

  it('launches by itself only at or below its ceiling, once, and the watch ends', async () => {
    const { rig: r, clock, usWest } = await signedInRig()
    // $19.92/h for the 8-GPU H100: a ceiling of $10 never launches it.
    await watch(r, specFor(r, 'cheap-only', usWest), { maxPricePerHour: 10, deadline: clock.now() + 24 * 60 * MIN })
    await watch(r, specFor(r, 'auto-job', usWest), { maxPricePerHour: 25, deadline: clock.now() + 24 * 60 * MIN })
    await pass(clock, 5_000)
    r.emulator.control.setStock(H100X8, usWest, true)
    await pass(clock, STOCK_CHECK_INTERVAL_MS)
    await until(() => named(r, 'auto-job').length === 1)
    await pass(clock, 10 * MIN)
    expect(named(r, 'auto-job')).toHaveLength(1)
    expect(named(r, 'cheap-only')).toEqual([])
    const watches = (await snapshot(r)).watches
    expect(watches.map((w) => w.spec.request.name)).toEqual(['cheap-only'])
    expect(watches[0]).toMatchObject({
      state: 'in-stock',
      note: expect.stringMatching(/\$19\.92\/h, is above your ceiling of \$10\.00\/h/)
    })
    expect(stockNotices(r).map((n) => n.title)).toContain('Launched «auto-job» in us-west-1')
    // The launch was recorded as this app's own: its Running is news, its spec is in the launch book.
    const again = await r.call('launches.again', { instanceId: named(r, 'auto-job')[0]!.instanceMetadata.instanceId })
    expect(again.ok && again.value.spec.request).toEqual({ ...specFor(r, 'auto-job', usWest).request })
  })

  it('makes exactly one instance when the automatic create’s answer is lost', async () => {
    const { rig: r, clock, usWest } = await signedInRig()
    await watch(r, specFor(r, 'lost-answer', usWest), { maxPricePerHour: 25, deadline: clock.now() + 60 * MIN })
    await pass(clock, 5_000)
    r.emulator.control.setStock(H100X8, usWest, true)
    // The create is carried out, its answer lost: create-once finds the instance it made.
    r.emulator.control.faults.loseNextAnswers(1, '/instance/create')
    await pass(clock, STOCK_CHECK_INTERVAL_MS)
    await until(() => r.emulator.control.requestCount('/instance/create') === 1 && named(r, 'lost-answer').length === 1)
    await pass(clock, 10 * MIN)
    expect(named(r, 'lost-answer')).toHaveLength(1)
    expect(r.emulator.control.requestCount('/instance/create')).toBe(1)
    expect((await snapshot(r)).watches).toEqual([])
    expect(stockNotices(r).map((n) => n.title)).toContain('Launched «lost-answer» in us-west-1')
  })

  it('keeps its watches across a restart', async () => {
    const { rig: r, clock, usWest } = await signedInRig()
    const watchId = await watch(r, specFor(r, 'kept', usWest), { maxPricePerHour: 25, deadline: clock.now() + 60 * MIN })
    await r.restart()
    await r.login()
    const after: StockWatch[] = (await snapshot(r)).watches
    expect(after.map((w) => [w.watchId, w.spec.request.name, w.auto?.maxPricePerHour])).toEqual([[watchId, 'kept', 25]])
    r.emulator.control.setStock(H100X8, usWest, true)
    await pass(clock, STOCK_CHECK_INTERVAL_MS + 5_000)
    await until(() => named(r, 'kept').length === 1)
  })

  it('ends an automatic watch at its deadline, saying so, with nothing launched', async () => {
    const { rig: r, clock, usWest } = await signedInRig()
    await watch(r, specFor(r, 'too-late', usWest), { maxPricePerHour: 25, deadline: clock.now() + 10 * MIN })
    await pass(clock, 12 * MIN)
    expect((await snapshot(r)).watches).toEqual([])
    expect(stockNotices(r).map((n) => n.title)).toEqual(['Stopped waiting for 8 × H100-SXM-80GB'])
    r.emulator.control.setStock(H100X8, usWest, true)
    await pass(clock, 5 * MIN)
    expect(named(r, 'too-late')).toEqual([])
  })

  it('refuses to launch by itself what is not complete, naming what to fill in', async () => {
    const { rig: r, clock, usWest } = await signedInRig()
    const spec = specFor(r, '', usWest)
    const answer = await r.call('availability.watch', {
      target: { instanceTypeId: H100X8, regions: [usWest], chargeMode: 'perHour' },
      spec,
      auto: { maxPricePerHour: 25, deadline: clock.now() + MIN * 60 }
    })
    expect(answer.ok).toBe(false)
    expect(!answer.ok && answer.error.message).toMatch(/give the instance a name/)
    // Only telling needs no name yet: Launch now opens the form for it.
    expect(
      (
        await r.call('availability.watch', {
          target: { instanceTypeId: H100X8, regions: [usWest], chargeMode: 'perHour' },
          spec,
          auto: null
        })
      ).ok
    ).toBe(true)
  })
})
