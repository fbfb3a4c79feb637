/**
 * The watcher's cost and reaction time, on a fake clock against the emulator over real sockets.
 *
 * 1. One simulated hour with 5 steady (Running) instances: list requests made by the watcher
 *    vs a naive poller that lists every 5 s, measured in the same run. Target: ratio ≤ 0.2.
 * 2. A status change during a transition (right after a create) is noticed within 3 s of
 *    simulated time, wherever in the poll cycle it lands.
 *
 * Run: npx tsx bench/watch-hour.ts   (exits non-zero when a target is missed)
 */
import { ManualClock } from '../src/shared/clock'
import { createCloudClient } from '../src/main/cloud/client'
import { createCoreRig, createRequest, type CoreRig } from '../src/main/testing/core-harness'

const HOUR_MS = 60 * 60_000
const NAIVE_INTERVAL_MS = 5_000
const RATIO_TARGET = 0.2
const NOTICE_TARGET_MS = 3_000

/** Advances the core's clock to its next timer and waits until the poll it started answered. */
async function runNextTimer(rig: CoreRig, until: number): Promise<boolean> {
  const due = rig.clock.nextDueAt()
  if (due === undefined || due > until) return false
  const answered = new Promise<void>((resolve) => {
    const off = rig.core.subscribe((event) => {
      if (event === 'instances') {
        off()
        resolve()
      }
    })
  })
  rig.clock.advance(due - rig.clock.now())
  await answered
  return true
}

async function watcherHour(): Promise<number> {
  const rig = await createCoreRig()
  try {
    await rig.emulator.control.seedInstances('demo', 5)
    await rig.login()
    await rig.call('instances.refresh')
    rig.emulator.control.resetRequestCount()
    const end = rig.clock.now() + HOUR_MS
    while (await runNextTimer(rig, end)) {
      // one scheduled poll per turn
    }
    return rig.emulator.control.requestCount()
  } finally {
    await rig.close()
  }
}

async function naiveHour(): Promise<number> {
  const rig = await createCoreRig()
  const clock = new ManualClock()
  try {
    await rig.emulator.control.seedInstances('demo', 5)
    const login = await createCloudClient({ baseUrl: rig.emulator.baseUrl, token: () => undefined }).login({
      username: 'demo',
      password: 'demo'
    })
    const client = createCloudClient({ baseUrl: rig.emulator.baseUrl, token: () => login.accessToken })
    rig.emulator.control.resetRequestCount()
    const end = clock.now() + HOUR_MS
    while (clock.now() + NAIVE_INTERVAL_MS <= end) {
      clock.advance(NAIVE_INTERVAL_MS)
      await client.listAllInstances()
    }
    await client.close()
    return rig.emulator.control.requestCount()
  } finally {
    await rig.close()
  }
}

/** Creates an instance, then changes its status `offsetMs` after a poll; returns how long until noticed. */
async function noticeDelay(offsetMs: number): Promise<number> {
  const rig = await createCoreRig({ emulator: { bootMs: 600_000 } }) // boots slowly: stays transitioning
  try {
    await rig.login()
    const created = await rig.call('instances.create', { request: createRequest(rig.emulator, 'job') })
    if (!created.ok) throw new Error(created.error.message)
    await rig.call('instances.refresh')
    rig.clock.advance(offsetMs)
    const changedAt = rig.clock.now()
    rig.emulator.control.setStatus(created.value.instanceId, 'Running')
    const noticed = new Promise<number>((resolve) => {
      rig.core.subscribe((event, payload) => {
        if (event === 'transitions' && (payload as { to: string | null }[]).some((t) => t.to === 'Running')) resolve(rig.clock.now())
      })
    })
    let at: number | undefined
    void noticed.then((t) => (at = t))
    while (at === undefined && (await runNextTimer(rig, changedAt + 60_000))) await Promise.resolve()
    await new Promise((resolve) => setImmediate(resolve))
    if (at === undefined) return Infinity
    return at - changedAt
  } finally {
    await rig.close()
  }
}

const naive = await naiveHour()
const watcher = await watcherHour()
const ratio = watcher / naive
console.log(`one hour, 5 steady instances: watcher ${watcher} requests, fixed 5 s poller ${naive} requests`)
console.log(`ratio ${ratio.toFixed(3)} (target ≤ ${RATIO_TARGET})`)

const offsets = [0, 500, 1_000, 1_500, 2_000, 2_400]
const delays: number[] = []
for (const offset of offsets) delays.push(await noticeDelay(offset))
const worst = Math.max(...delays)
console.log(
  `status change during a transition noticed after ${delays.map((d) => `${d} ms`).join(', ')} (worst ${worst} ms, target ≤ ${NOTICE_TARGET_MS} ms)`
)

const ok = ratio <= RATIO_TARGET && worst <= NOTICE_TARGET_MS
console.log(ok ? 'PASS' : 'FAIL')
process.exit(ok ? 0 : 1)
