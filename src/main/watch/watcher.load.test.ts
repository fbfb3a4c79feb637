/**
 * Load: the real core (watcher → notification policy → platform) over the real cloud client and
 * the emulator on loopback, with 2,000 instances and 200 status changes a minute for ten
 * simulated minutes. Every change is counted: each must reach the app as exactly one transition
 * and be covered by exactly one notification (singly, or inside a summary "N instances changed").
 *
 * Each instance changes once (a random order over all 2,000), so every change is observable by a
 * poller: a miss or a duplicate is the app's fault, never the test's. Time is a ManualClock; the
 * only waiting is for the poll's own HTTP requests, tracked through the client, never a sleep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppNotification, Transition } from '../../shared/contract'
import { createCloudClient } from '../cloud/client'
import type { CloudClient } from '../cloud/types'
import { createCoreRig, type CoreRig } from '../testing/core-harness'

const INSTANCES = 2_000
const CHANGES_PER_MINUTE = 200
const MINUTES = 10
const CHANGES = CHANGES_PER_MINUTE * MINUTES

/** Deterministic shuffle (mulberry32), so a failure replays exactly. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

/** How many instance changes a notification stands for. */
function covered(notification: AppNotification): number {
  if (notification.kind !== 'summary') return 1
  const count = /^(\d+) instances changed$/.exec(notification.title)?.[1]
  if (!count) throw new Error(`summary without a count: ${notification.title}`)
  return Number(count)
}

let rig: CoreRig
const inFlight = new Set<Promise<unknown>>()
let listCalls = 0

/** Lets the core's own async work (the list requests a timer started) finish before time moves on. */
async function settle(): Promise<void> {
  for (let round = 0; round < 1_000; round++) {
    await new Promise((resolve) => setImmediate(resolve))
    if (inFlight.size === 0) {
      await new Promise((resolve) => setImmediate(resolve))
      if (inFlight.size === 0) return
      continue
    }
    await Promise.allSettled([...inFlight])
  }
  throw new Error('the core kept listing for 1,000 rounds')
}

beforeAll(async () => {
  rig = await createCoreRig({
    core: {
      // The real client, with its list calls tracked so the test knows when a poll is done.
      cloudClientFactory: (options) => {
        const client: CloudClient = createCloudClient(options)
        const listAll = client.listAllInstances.bind(client)
        client.listAllInstances = (listOptions) => {
          listCalls++
          const call = listAll(listOptions)
          inFlight.add(call)
          void call.finally(() => inFlight.delete(call)).catch(() => undefined)
          return call
        }
        return client
      }
    }
  })
  await rig.emulator.control.seedInstances('demo', INSTANCES)
  await rig.login()
  await settle()
}, 60_000)

afterAll(async () => {
  await rig?.close()
})

describe('watcher under load', () => {
  it(`turns ${CHANGES} changes over ${INSTANCES} instances into exactly ${CHANGES} transitions and notifications`, async () => {
    const first = rig.of('instances').at(-1)
    expect(first?.instances).toHaveLength(INSTANCES)
    const before = { transitions: rig.of('transitions').length, notifications: rig.platform.notifications.length }

    const ids = shuffled(
      first!.instances.map((i) => i.instanceMetadata.instanceId),
      20_260_101
    )
    const stepMs = 60_000 / CHANGES_PER_MINUTE // one change every 300 ms
    for (const id of ids.slice(0, CHANGES)) {
      rig.emulator.control.setStatus(id, 'Stopped')
      await rig.clock.advanceAsync(stepMs, settle)
    }
    // Let the watcher look once more after the last change (one steady interval is enough).
    await rig.clock.advanceAsync(60_000, settle)

    const transitions: Transition[] = rig.of('transitions').slice(before.transitions).flat()
    const notifications = rig.platform.notifications.slice(before.notifications)

    // Exactly one transition per changed instance, each Running → Stopped.
    const perInstance = new Map<string, Transition[]>()
    for (const t of transitions) perInstance.set(t.instanceId, [...(perInstance.get(t.instanceId) ?? []), t])
    expect(perInstance.size).toBe(CHANGES)
    expect([...perInstance.values()].filter((list) => list.length !== 1)).toEqual([])
    expect(transitions.every((t) => t.from === 'Running' && t.to === 'Stopped')).toBe(true)
    expect(new Set(perInstance.keys())).toEqual(new Set(ids.slice(0, CHANGES)))

    // Notifications: every change covered exactly once; singles never name an instance twice.
    expect(notifications.reduce((sum, n) => sum + covered(n), 0)).toBe(CHANGES)
    const singles = notifications.filter((n) => n.kind !== 'summary').map((n) => n.instanceId)
    expect(new Set(singles).size).toBe(singles.length)
    expect(new Set(notifications.map((n) => n.id)).size).toBe(notifications.length)

    // The app's final view is the cloud's: 2,000 Stopped.
    const last = rig.of('instances').at(-1)!
    expect(last.instances.filter((i) => i.instanceRuntimeInfo.status === 'Stopped')).toHaveLength(CHANGES)
    // And it did so polling on its schedule, not flooding: at most one list per fast interval.
    expect(listCalls).toBeLessThanOrEqual(Math.ceil(((MINUTES + 1) * 60_000) / 2_500) + 2)
  }, 120_000)
})
