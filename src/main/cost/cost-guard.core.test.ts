/**
 * The cost guard through the core against the emulator, on one ManualClock: rules set with
 * `cost.setRules`, a countdown notification, the stop through `instances.stop` (so the watcher's
 * Stopped is not announced as someone else's), the notification saying why, and the tray; the
 * runway from the balance the emulator's billing spends.
 */
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import type { AppNotification } from '../../shared/contract'
import type { CostSnapshot } from '../../shared/contract-cost'
import { NO_RULES } from '../../shared/guard-rules'
import { createRequest, type CoreRig } from '../testing/core-harness'
import { coreRigsPerTest } from '../testing/core-rigs'
import { passUntil } from '../testing/emulated-time'

const MIN = 60_000
const rigs = coreRigsPerTest()

async function pass(clock: ManualClock, ms: number, step = 5_000): Promise<void> {
  for (let done = 0; done < ms; done += step) {
    await clock.advanceAsync(Math.min(step, ms - done), () => new Promise((resolve) => setTimeout(resolve, 5)))
  }
}

/** A core and its emulator on one ManualClock, signed in, with one instance created and Running. */
async function runningInstance(
  name: string,
  before?: (rig: CoreRig) => void
): Promise<{ rig: CoreRig; clock: ManualClock; instanceId: string }> {
  const { rig, clock } = await rigs.clocked({ bootMs: 1_000, stopMs: 500 })
  before?.(rig)
  await rig.login()
  const created = await rig.call('instances.create', { request: createRequest(rig.emulator, name) })
  if (!created.ok) throw new Error(created.error.message)
  await pass(clock, 10_000)
  return { rig, clock, instanceId: created.value.instanceId }
}

describe('the cost guard in the core', () => {
  it('stop after 1 h: countdown, stop through the Stop command, told why, not announced as news', async () => {
    const { rig, clock, instanceId } = await runningInstance('guarded')
    const seen = await rig.call('cost.get')
    expect(seen.ok && seen.value.instances.map((i) => i.instanceId)).toEqual([instanceId])
    // The factory defaults: a reminder after 8 h and the plan warning, shown in words.
    expect(seen.ok && seen.value.instances[0]!.ruleWords).toEqual(['reminds every 8 h running', 'warns 15 min before its plan ends'])
    expect(seen.ok && seen.value.burnRatePerHour).toBe(2.49)

    const set = await rig.call('cost.setRules', { instanceId, rules: { ...NO_RULES, stopAfterHours: 1 } })
    expect(set.ok).toBe(true)
    await pass(clock, 60 * MIN)
    const countdown = rig.platform.notifications.find((n) => n.kind === 'countdown')
    expect(countdown).toMatchObject({ title: '«guarded» stops in 5 min', instanceId })
    const tray = rig.platform.trays.at(-1)!
    // The Sandbox account has a balance, so the first line is the runway (see the test below).
    expect(tray.items[0]!.label).toMatch(/^≈ \d+ h left at \$2\.49\/h$/)
    expect(tray.items.some((i) => i.id === `instance:${instanceId}:keep-running`)).toBe(true)

    await pass(clock, 5 * MIN)
    // The stop, and the poll that sees it, travel over real sockets: on until both have landed
    // (a fixed 10 s of the clock lost that race on a busy machine).
    const status = (): string => rig.emulator.control.instances('demo')[0]!.instanceRuntimeInfo.status
    await passUntil(clock, () => status() === 'Stopped' && (rig.of('cost').at(-1) as CostSnapshot).instances.length === 0)
    const kinds = rig.platform.notifications.map((n: AppNotification) => n.kind)
    expect(kinds.filter((k) => k === 'auto-stop')).toHaveLength(1)
    expect(rig.platform.notifications.find((n) => n.kind === 'auto-stop')!.body).toMatch(/because it has run for 1 h/)
    // The watcher saw it stop; the app did it, so it is not news ("stopped outside Cloud Tray").
    expect(kinds).not.toContain('stopped')
    const after = rig.of('cost').at(-1) as CostSnapshot
    expect(after.instances).toEqual([])
    expect(after.burnRatePerHour).toBe(0)
  })

  it('"Keep running" from the tray: it stays up', async () => {
    const { rig, clock, instanceId } = await runningInstance('kept')
    await rig.call('cost.setRules', { instanceId, rules: { ...NO_RULES, stopAfterHours: 0.25 } })
    await pass(clock, 15 * MIN)
    const kept = await rig.call('tray.activate', { itemId: `instance:${instanceId}:keep-running` })
    expect(kept.ok).toBe(true)
    await pass(clock, 30 * MIN)
    expect(rig.emulator.control.instances('demo')[0]!.instanceRuntimeInfo.status).toBe('Running')
    const cost = await rig.call('cost.get')
    expect(cost.ok && cost.value.instances[0]!.keepRunningUntil).toBeGreaterThan(clock.now())
  })

  it('with a balance: the emulator charges the running instance, /balance shows it, and the runway follows in the tray and the window', async () => {
    const { rig, clock, instanceId } = await runningInstance('metered', (r) =>
      r.emulator.control.setBalance('demo', { balance: 100, voucher: 0, credit: 0 })
    )
    const first = await rig.call('cost.get')
    expect(first.ok && first.value.runway?.hours).toBeCloseTo(100 / 2.49, 1)

    // An hour of emulator time at $2.49/h: the emulator's meter spends it, GET /balance says so.
    await pass(clock, 60 * MIN)
    const read = await rig.call('balance.refresh')
    if (!read.ok) throw new Error(read.error.message)
    const charged = rig.emulator.control.balance('demo').charged[instanceId]!
    expect(charged).toBeCloseTo((2.49 * (60 * MIN + 10_000)) / (60 * MIN), 2)
    expect(read.value.balance?.availableBalance).toBeCloseTo(100 - charged, 2)

    // The guard's runway is that balance over the burn rate, in cost.get (the window) and the tray.
    const cost = await rig.call('cost.get')
    if (!cost.ok) throw new Error(cost.error.message)
    expect(cost.value.runway?.available).toBeCloseTo(100 - charged, 2)
    expect(cost.value.runway?.hours).toBeCloseTo((100 - charged) / 2.49, 2)
    expect(rig.platform.trays.at(-1)!.items[0]!.label).toBe(`≈ ${Math.floor((100 - charged) / 2.49)} h left at $2.49/h`)
    expect(rig.platform.trays.at(-1)!.tooltip).toMatch(/\$2\.49\/h/)
  })
})
