/**
 * A spot instance reclaimed by the provider (the emulator's preempt) through the core (#26):
 * without a relaunch rule, the notification says so and "Relaunch like this one" opens the review
 * step with the same spec; with one (the instance's, or its template's), exactly one new instance
 * with the same spec and volumes once stock allows, within the price ceiling.
 */
import { describe, expect, it } from 'vitest'
import type { Instance } from '../../shared/api'
import { ManualClock } from '../../shared/clock'
import type { CreateInstanceRequest } from '../../shared/create-request'
import { EVERY_PART } from '../../shared/testing/create-request'
import { createRequest, type CoreRig } from '../testing/core-harness'
import { coreRigsPerTest } from '../testing/core-rigs'
import { pass, until } from '../testing/emulated-time'

const SPOT = 'gpu-h100-sxm-1x-spot'
const MIN = 60_000

const rigs = coreRigsPerTest()

/** A spot instance this app launched with a volume, ports, docker and an init script, running. */
async function runningSpot(): Promise<{ r: CoreRig; clock: ManualClock; request: CreateInstanceRequest; instanceId: string }> {
  const { rig: r, clock } = await rigs.clocked({ bootMs: 2_000, stopMs: 500 })
  await r.login()
  const region = r.emulator.control.catalog().regions[0]!.regionId
  const request = createRequest(r.emulator, 'spot-trainer', {
    instanceTypeId: SPOT,
    region,
    isSpotInstance: true,
    ...EVERY_PART
  })
  const created = await r.call('instances.create', { request })
  if (!created.ok) throw new Error(created.error.message)
  await pass(clock, 10_000)
  return { r, clock, request, instanceId: created.value.instanceId }
}

const spots = (r: CoreRig): Instance[] => r.emulator.control.instances('demo').filter((i) => i.instanceSpecInfo.name === 'spot-trainer')

/** What a listed instance says of the launch (the fields the API lists back). */
function listedSpec(instance: Instance) {
  const spec = instance.instanceSpecInfo
  return {
    type: spec.instanceTypeInfo.instanceId,
    region: spec.regionInfo.regionId,
    billing: [spec.instanceBillingInfo.chargeMode, spec.instanceBillingInfo.duration],
    spot: spec.isSpotInstance,
    ports: spec.nodePorts.map((p) => p.port).sort((a, b) => a - b),
    storages: spec.remoteStorages,
    configuration: spec.instanceConfiguration,
    image: spec.imageInfo?.name
  }
}

describe('a reclaimed spot instance (#26)', () => {
  it('without a relaunch rule: the notice says it was reclaimed and offers Relaunch like this one, at the review step', async () => {
    const { r, clock, request, instanceId } = await runningSpot()
    r.emulator.control.preempt(instanceId)
    await pass(clock, 35_000)
    await until(() => r.platform.notifications.some((n) => n.kind === 'reclaimed'))
    const notice = r.platform.notifications.find((n) => n.kind === 'reclaimed')!
    expect(notice).toMatchObject({ title: '«spot-trainer» was reclaimed by the provider', instanceId })
    expect(notice.actions).toEqual([{ id: 'relaunch', label: 'Relaunch like this one' }])
    expect(r.platform.notifications.some((n) => n.kind === 'stopped')).toBe(false)

    r.core.notificationActivated(notice, 'relaunch')
    await until(() => r.of('navigate').length > 0)
    expect(r.of('navigate').at(-1)).toEqual({
      view: 'create-instance',
      fill: {
        spec: { request, regions: [request.region] },
        review: true,
        note: 'Filled from «spot-trainer», as Cloud Tray launched it.',
        origin: { relaunchOf: instanceId }
      }
    })
    // Nothing is created until the user presses Launch.
    await pass(clock, 5 * MIN)
    expect(spots(r)).toHaveLength(1)
  })

  it('with "relaunch automatically": one new instance with the same spec and volumes once stock allows, none above the ceiling', async () => {
    const { r, clock, request, instanceId } = await runningSpot()
    // $1.25/h spot: a ceiling of $1 would never relaunch it; $2 does.
    const set = await r.call('availability.setRelaunch', { instanceId, rule: { maxPricePerHour: 2, withinHours: 6 } })
    expect(set.ok && set.value.relaunch).toEqual([{ instanceId, rule: { maxPricePerHour: 2, withinHours: 6 } }])
    r.emulator.control.setStock(SPOT, request.region, false)
    r.emulator.control.preempt(instanceId)
    await pass(clock, 35_000)
    await until(() => r.platform.notifications.some((n) => n.kind === 'reclaimed'))
    expect(r.platform.notifications.find((n) => n.kind === 'reclaimed')!.body).toMatch(
      /relaunches it with the same settings and volumes as soon as stock allows, at most \$2\.00\/h/
    )
    // Out of stock: it waits.
    await pass(clock, 10 * MIN, 15_000)
    expect(spots(r)).toHaveLength(1)

    r.emulator.control.setStock(SPOT, request.region, true)
    await pass(clock, 2 * MIN, 15_000)
    await until(() => spots(r).length === 2)
    await pass(clock, 10 * MIN, 15_000)
    const [fresh, old] = spots(r)
    expect(spots(r)).toHaveLength(2)
    expect(old!.instanceMetadata.instanceId).toBe(instanceId)
    expect(listedSpec(fresh!)).toEqual(listedSpec(old!))
    expect(fresh!.instanceSpecInfo.remoteStorages).toEqual(request.remoteStorages)
    // The launch book has every field it was sent with, init script included; the rule carries over.
    const again = await r.call('launches.again', { instanceId: fresh!.instanceMetadata.instanceId })
    expect(again.ok && again.value.spec.request).toEqual(request)
    const after = await r.call('availability.get')
    expect(after.ok && after.value.watches).toEqual([])
    expect(after.ok && after.value.relaunch.map((entry) => entry.instanceId)).toContain(fresh!.instanceMetadata.instanceId)
  })

  it('never relaunches above the ceiling', async () => {
    const { r, clock, instanceId } = await runningSpot()
    await r.call('availability.setRelaunch', { instanceId, rule: { maxPricePerHour: 1, withinHours: 1 } })
    r.emulator.control.preempt(instanceId)
    await pass(clock, 35_000)
    await until(async () => {
      const now = await r.call('availability.get')
      return now.ok && now.value.watches[0]?.state === 'in-stock'
    })
    await pass(clock, 70 * MIN, 30_000)
    expect(spots(r)).toHaveLength(1)
  })

  it('refuses an automatic relaunch for an instance this app did not launch (it does not know its image or init script)', async () => {
    const { rig: r } = await rigs.clocked()
    const [seeded] = await r.emulator.control.seedInstances('demo', 1, { instanceTypeId: SPOT })
    await r.login()
    const answer = await r.call('availability.setRelaunch', { instanceId: seeded!, rule: { maxPricePerHour: 2, withinHours: 1 } })
    expect(!answer.ok && answer.error.message).toMatch(/did not launch this instance/)
  })
})
