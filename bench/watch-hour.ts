/**
 * The watcher's cost and reaction time, on a fake clock against the emulator over real sockets.
 *
 * 1. One simulated hour with 5 steady (Running) instances: list requests made by the watcher
 *    vs a naive poller that lists every 5 s, measured in the same run. Target: ratio ≤ 0.2.
 * 2. A status change during a transition (right after a create) is noticed within 3 s of
 *    simulated time, wherever in the poll cycle it lands.
 *
 * Only list requests count: the core also reads the balance and the catalog on timers of its own.
 *
 * Run: npx tsx bench/watch-hour.ts   (exits non-zero when a target is missed)
 */
import './plays-main'
import { ManualClock, type Clock, type TimerHandle } from '../src/shared/clock'
import { createCloudClient } from '../src/main/cloud/client'
import { createCoreRig, createRequest, type CoreRig } from '../src/main/testing/core-harness'
import { highest, lowest } from '../src/shared/extremes'

const LIST_ROUTE = '/instance/list'

const HOUR_MS = 60 * 60_000
const NAIVE_INTERVAL_MS = 5_000
const RATIO_TARGET = 0.2
const NOTICE_TARGET_MS = 3_000

/**
 * The core's clock, telling the watcher's timers apart from the others (the balance model, the
 * catalog cache and the cost guard keep timers too) by who sets them: watch/watcher.ts. The
 * bench steps from one poll to the next; a poll is over when the watcher schedules the next one
 * (an unchanged list sends no event, and a balance read sets no poll).
 */
class PollAwareClock implements Clock {
  readonly manual = new ManualClock(Date.now())
  private readonly polls = new Map<number, number>()
  private scheduled: (() => void) | undefined

  now(): number {
    return this.manual.now()
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    // The frame that called this one (under "Error" and this method's own frame, and past the
    // guard every part's clock runs its timers under: src/main/supervisor.ts); deeper frames
    // would also name the watcher for timers set by what it calls (the cost guard's look delay).
    const frames = (new Error().stack ?? '').split('\n').slice(2)
    const caller = frames.find((frame) => !/[\\/]supervisor\.ts/.test(frame)) ?? ''
    const fromWatcher = /[\\/]watch[\\/]watcher\.ts/.test(caller)
    const handle = this.manual.setTimeout(() => {
      this.polls.delete(handle.id)
      callback()
    }, ms)
    if (fromWatcher) {
      this.polls.set(handle.id, this.manual.now() + Math.max(0, ms))
      this.scheduled?.()
    }
    return handle
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    if (handle) this.polls.delete(handle.id)
    this.manual.clearTimeout(handle)
  }

  /** Resolves when the watcher next sets a poll timer. */
  nextPollScheduled(): Promise<void> {
    return new Promise((resolve) => {
      this.scheduled = () => {
        this.scheduled = undefined
        resolve()
      }
    })
  }

  /** When the watcher's next poll is due, if one is scheduled. */
  nextPollAt(): number | undefined {
    return lowest(this.polls.values())
  }
}

async function pollAwareRig(options: Parameters<typeof createCoreRig>[0] = {}): Promise<{ rig: CoreRig; clock: PollAwareClock }> {
  const clock = new PollAwareClock()
  return { rig: await createCoreRig({ ...options, core: { clock } }), clock }
}

/** Advances the core's clock to the watcher's next poll (other timers due before it run too) and waits until that poll is over. */
async function runNextPoll(clock: PollAwareClock, until: number): Promise<boolean> {
  const due = clock.nextPollAt()
  if (due === undefined || due > until) return false
  const over = clock.nextPollScheduled()
  clock.manual.advance(due - clock.now())
  await over
  return true
}

async function watcherHour(): Promise<number> {
  const { rig, clock } = await pollAwareRig()
  try {
    await rig.emulator.control.seedInstances('demo', 5)
    await rig.login()
    await rig.call('instances.refresh')
    rig.emulator.control.resetRequestCount()
    const end = clock.now() + HOUR_MS
    while (await runNextPoll(clock, end)) {
      // one scheduled poll per turn
    }
    return rig.emulator.control.requestCount(LIST_ROUTE)
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
    return rig.emulator.control.requestCount(LIST_ROUTE)
  } finally {
    await rig.close()
  }
}

/** Creates an instance, then changes its status `offsetMs` after a poll; returns how long until noticed. */
async function noticeDelay(offsetMs: number): Promise<number> {
  const { rig, clock } = await pollAwareRig({ emulator: { bootMs: 600_000 } }) // boots slowly: stays transitioning
  try {
    await rig.login()
    const created = await rig.call('instances.create', { request: createRequest(rig.emulator, 'job') })
    if (!created.ok) throw new Error(created.error.message)
    await rig.call('instances.refresh')
    clock.manual.advance(offsetMs)
    const changedAt = clock.now()
    rig.emulator.control.setStatus(created.value.instanceId, 'Running')
    const noticed = new Promise<number>((resolve) => {
      rig.core.subscribe((event, payload) => {
        if (event === 'transitions' && (payload as { to: string | null }[]).some((t) => t.to === 'Running')) resolve(clock.now())
      })
    })
    let at: number | undefined
    void noticed.then((t) => (at = t))
    while (at === undefined && (await runNextPoll(clock, changedAt + 60_000))) await Promise.resolve()
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
const worst = highest(delays) ?? Infinity
console.log(
  `status change during a transition noticed after ${delays.map((d) => `${d} ms`).join(', ')} (worst ${worst} ms, target ≤ ${NOTICE_TARGET_MS} ms)`
)

const ok = ratio <= RATIO_TARGET && worst <= NOTICE_TARGET_MS
console.log(ok ? 'PASS' : 'FAIL')
process.exit(ok ? 0 : 1)
