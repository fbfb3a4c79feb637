/**
 * What waiting for stock costs (#26): 50 availability watches for one emulated day through the
 * app's core against the Sandbox emulator over real sockets, on a ManualClock the core and the
 * emulator share.
 *
 * 1. Catalog reads (`POST /resource/user/instance/list`) against the reference of a watcher that
 *    reads once per watch per interval: 50 × 1440 for a day at the 60 s interval (the reference
 *    is measured for one emulated hour in the same run, then counted for the day). Target: one
 *    read per interval whatever the number of watches, a ratio ≤ 0.02 at 50 watches.
 * 2. Stock appearing (set through the emulator's control at moments spread over the interval) is
 *    noticed within one interval of simulated time.
 *
 * The core keeps other timers (the instance watcher, the balance, the cost guard): they run as
 * the clock moves, and only the feed's route is counted. The clock is moved from one due read to
 * the next, waiting (in real time, bounded) for each read to land before moving on, so a slow
 * machine can neither skip a read nor hang the bench.
 *
 * Run: npx tsx bench/catalog-watch.ts   (exits non-zero when a target is missed)
 */
import './plays-main'
import { createCloudClient } from '../src/main/cloud/client'
import { createCoreRig, createRequest, type CoreRig } from '../src/main/testing/core-harness'
import { ManualClock } from '../src/shared/clock'
import { highest } from '../src/shared/extremes'
import type { AvailabilitySnapshot, StockTarget } from '../src/shared/contract-launch'

const WATCHES = 50
const INTERVAL_MS = 60_000
const DAY_MS = 24 * 60 * 60_000
const HOUR_MS = 60 * 60_000
const RATIO_TARGET = 0.02
const FEED = '/resource/user/instance/list'
/** Where in the interval (after a read) stock appears, in ms: the notice must come within one interval each time. */
const OFFSETS = [0, 5_000, 20_000, 35_000, 50_000, 59_000]
/** Real time a read may take to land before the bench gives up on it. */
const READ_LANDS_WITHIN_MS = 10_000

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

async function snapshot(rig: CoreRig): Promise<AvailabilitySnapshot> {
  const answer = await rig.call('availability.get')
  if (!answer.ok) throw new Error(answer.error.message)
  return answer.value
}

/** Moves the clock to the next due read and waits until that read has landed; answers its time. */
async function nextRead(rig: CoreRig, clock: ManualClock): Promise<number> {
  const due = (await snapshot(rig)).checks.nextReadAt
  if (due === undefined) throw new Error('no read is scheduled')
  await clock.advanceAsync(Math.max(0, due - clock.now()), () => pause(1))
  const gaveUpAt = Date.now() + READ_LANDS_WITHIN_MS
  for (;;) {
    const { checks } = await snapshot(rig)
    if (checks.lastReadAt !== null && checks.lastReadAt >= due && checks.nextReadAt !== undefined) return due
    if (Date.now() > gaveUpAt) throw new Error(`the read due at ${due} did not land (${JSON.stringify(checks)})`)
    await pause(2)
  }
}

/** 50 targets over the catalog's offers, every offer first put out of stock. */
function targets(rig: CoreRig): StockTarget[] {
  const catalog = rig.emulator.control.catalog()
  const regions = catalog.regions.map((region) => region.regionId)
  for (const type of catalog.instanceTypes) for (const region of regions) rig.emulator.control.setStock(type.instanceTypeId, region, false)
  const list: StockTarget[] = []
  for (let i = 0; list.length < WATCHES; i++) {
    const type = catalog.instanceTypes[i % catalog.instanceTypes.length]!
    const pick = regions.filter((_, index) => (i >> index) % 2 === 0 || index === i % regions.length)
    list.push({ instanceTypeId: type.instanceTypeId, regions: pick, chargeMode: 'perHour' })
  }
  return list
}

async function watchedDay(): Promise<{ reads: number; intervals: number; delays: number[] }> {
  const clock = new ManualClock(Date.now())
  // A token outlives the day: the session is not what is measured.
  const rig = await createCoreRig({ emulator: { clock, tokenTtlSeconds: 3 * 86_400 }, core: { clock } })
  try {
    await rig.login()
    const list = targets(rig)
    for (const [index, target] of list.entries()) {
      const request = createRequest(rig.emulator, `watch-${index}`, { instanceTypeId: target.instanceTypeId, region: target.regions[0]! })
      const started = await rig.call('availability.watch', { target, spec: { request, regions: target.regions }, auto: null })
      if (!started.ok) throw new Error(started.error.message)
    }
    await nextRead(rig, clock)
    rig.emulator.control.resetRequestCount()

    const start = clock.now()
    const noticeAt = OFFSETS.map((offset, index) => ({ at: start + ((index + 1) * DAY_MS) / (OFFSETS.length + 1), offset }))
    const delays: number[] = []
    const probe = list[0]!
    while (clock.now() < start + DAY_MS) {
      const read = await nextRead(rig, clock)
      const due = noticeAt[delays.length]
      if (!due || read < due.at || read + INTERVAL_MS > start + DAY_MS) continue
      // Stock appears `offset` after this read (no read runs before the next due one).
      await clock.advanceAsync(due.offset, () => pause(1))
      const appearedAt = clock.now()
      rig.emulator.control.setStock(probe.instanceTypeId, probe.regions[0]!, true)
      let noticed: number | undefined
      while (noticed === undefined && clock.now() - appearedAt <= 2 * INTERVAL_MS) {
        const at = await nextRead(rig, clock)
        const watch = (await snapshot(rig)).watches.find((entry) => entry.spec.request.name === 'watch-0')
        if (watch?.state === 'in-stock') noticed = at
      }
      delays.push((noticed ?? Infinity) - appearedAt)
      rig.emulator.control.setStock(probe.instanceTypeId, probe.regions[0]!, false)
    }
    return { reads: rig.emulator.control.requestCount(FEED), intervals: Math.round((clock.now() - start) / INTERVAL_MS), delays }
  } finally {
    await rig.close()
  }
}

/** The reference: a watcher reading the catalog once per watch per interval, for one emulated hour. */
async function naiveHour(): Promise<number> {
  const clock = new ManualClock(Date.now())
  const rig = await createCoreRig({ emulator: { clock } })
  try {
    const login = await createCloudClient({ baseUrl: rig.emulator.baseUrl, token: () => undefined }).login({
      username: 'demo',
      password: 'demo'
    })
    const client = createCloudClient({ baseUrl: rig.emulator.baseUrl, token: () => login.accessToken })
    rig.emulator.control.resetRequestCount()
    for (let at = 0; at < HOUR_MS; at += INTERVAL_MS) {
      clock.advance(INTERVAL_MS)
      for (let watch = 0; watch < WATCHES; watch++) await client.catalog()
    }
    await client.close()
    return rig.emulator.control.requestCount(FEED)
  } finally {
    await rig.close()
  }
}

const hour = await naiveHour()
const reference = hour * (DAY_MS / HOUR_MS)
const { reads, intervals, delays } = await watchedDay()
const ratio = reads / reference
const worst = highest(delays) ?? 0
console.log(
  `reference: one read per watch per interval, measured ${hour} reads for ${WATCHES} watches in one emulated hour → ${reference} for the day`
)
console.log(`app: ${reads} catalog reads for ${WATCHES} watches over one emulated day (${intervals} intervals of ${INTERVAL_MS / 1000} s)`)
console.log(`ratio ${ratio.toFixed(4)} (target ≤ ${RATIO_TARGET}; one read per interval is ${(1 / WATCHES).toFixed(4)})`)
console.log(
  `stock noticed ${delays.map((d) => `${d / 1000} s`).join(', ')} after it appeared (worst ${worst / 1000} s, target ≤ ${INTERVAL_MS / 1000} s)`
)
const ok = reads <= intervals && ratio <= RATIO_TARGET && delays.length === OFFSETS.length && worst <= INTERVAL_MS
console.log(ok ? 'PASS' : 'FAIL')
process.exit(ok ? 0 : 1)
