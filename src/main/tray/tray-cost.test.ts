import { describe, expect, it } from 'vitest'
import type { InstancesSnapshot, SessionState, Settings, TrayMenuItem } from '../../shared/contract'
import type { CostSnapshot, GuardInstance } from '../../shared/contract-cost'
import { formatClockTime } from '../../shared/cost-words'
import { DEFAULT_SETTINGS } from '../settings/settings-schema'
import { costRow } from '../../shared/testing/cost-row'
import { makeInstance } from '../../shared/testing/instance'
import { parseTrayItemId, trayModel } from './tray-model'

const signedIn: SessionState = { status: 'signed-in', profileId: 'sandbox', username: 'demo', remembered: false, keychain: 'available' }
const signedOut: SessionState = { ...signedIn, status: 'signed-out' }
const ports = [{ port: 22, address: '10.0.0.5', nodePort: 30022 }]
const snap: InstancesSnapshot = {
  instances: [makeInstance({ id: 'a', name: 'train', nodePorts: ports }), makeInstance({ id: 'b', name: 'eval', nodePorts: ports })],
  fetchedAt: 1,
  mode: 'steady'
}

const guarded = (instanceId: string, name: string, over: Partial<GuardInstance> = {}): GuardInstance =>
  costRow({ instanceId, name, ...over }, 19.92)

const ENDS = Date.UTC(2026, 0, 1, 14, 5)
const cost: CostSnapshot = {
  at: 0,
  burnRatePerHour: 24.4,
  billedCount: 2,
  instances: [
    guarded('a', 'train', {
      ruleWords: ['auto-stops when idle 30 min (GPU below 5 %)', 'reminds every 8 h running'],
      gpu: {
        state: 'probing',
        latest: { at: 0, gpus: [{ utilization: 87, memoryUsedMiB: 40_960, memoryTotalMiB: 81_920 }] },
        history: [{ at: 0, busiest: 87 }]
      },
      countdown: { rule: 'idle', reason: 'idle', startedAt: 0, endsAt: ENDS }
    }),
    guarded('b', 'eval', {
      meter: {
        price: 107.52,
        unit: '$',
        chargeMode: 'perWeek',
        hourlyRate: 0.64,
        runStartedAt: 0,
        runStartSource: 'created',
        uptimeMs: 0,
        costSoFar: 0,
        plan: { committed: 107.52, periods: 1, chargeMode: 'perWeek', endsAt: ENDS }
      },
      gpu: { state: 'unavailable', reason: 'host key not trusted yet', history: [] }
    })
  ]
}

const withPlanEnd = (entry: GuardInstance, endsAt: number): GuardInstance => ({
  ...entry,
  meter: { ...entry.meter, plan: { ...entry.meter.plan!, endsAt } }
})

const labels = (items: TrayMenuItem[] | undefined): string[] => (items ?? []).filter((i) => i.type !== 'separator').map((i) => i.label)
const sub = (items: TrayMenuItem[], id: string) => items.find((i) => i.id === `instance:${id}`)?.submenu

describe('the cost guard in the tray', () => {
  it('the burn rate is the first line and in the tooltip; a countdown can be answered from the menu', () => {
    const model = trayModel(signedIn, snap, DEFAULT_SETTINGS, { cost })
    expect(labels(model.items).slice(0, 3)).toEqual([
      '$24.40/h for 2 instances',
      'Signed in as demo',
      `Keep «train» running (stops at ${formatClockTime(ENDS)})`
    ])
    expect(model.tooltip).toBe('2 running · $24.40/h')
    const keep = model.items.find((i) => i.id === 'instance:a:keep-running')!
    expect(keep.enabled).toBe(true)
    expect(parseTrayItemId(keep.id)).toEqual({ kind: 'keep-running', instanceId: 'a' })
  })

  it('with a balance, the runway', () => {
    const model = trayModel(signedIn, snap, DEFAULT_SETTINGS, { cost: { ...cost, runway: { hours: 41.3, available: 1007.7 } } })
    expect(model.items[0]!.label).toBe('≈ 41 h left at $24.40/h')
  })

  it('each instance: its price (or plan), its GPUs, the rule that would stop it', () => {
    const model = trayModel(signedIn, snap, DEFAULT_SETTINGS, { cost: { ...cost, at: ENDS - 60_000 } })
    expect(labels(sub(model.items, 'a')).slice(0, 3)).toEqual([
      '$19.92/h',
      'GPU 87 % · 40 of 80 GiB',
      'Auto-stops when idle 30 min (GPU below 5 %)'
    ])
    expect(labels(sub(model.items, 'b')).slice(0, 2)).toEqual([
      `$107.52 1-week plan, ends ${formatClockTime(ENDS)}`,
      'GPU activity unavailable: host key not trusted yet'
    ])
    expect(
      sub(model.items, 'a')!
        .slice(0, 3)
        .every((i) => !i.enabled)
    ).toBe(true)
  })

  it('the title beside the icon only when the user asks for it (macOS)', () => {
    const off = trayModel(signedIn, snap, DEFAULT_SETTINGS, { cost })
    expect(off.title).toBeUndefined()
    const settings: Settings = { ...DEFAULT_SETTINGS, costGuard: { ...DEFAULT_SETTINGS.costGuard, trayTitle: true } }
    expect(trayModel(signedIn, snap, settings, { cost }).title).toBe('$24.40/h')
    expect(
      trayModel(signedIn, snap, settings, { cost: { ...cost, billedCount: 0, burnRatePerHour: 0, instances: [] } }).title
    ).toBeUndefined()
  })

  it('nothing about cost while signed out or with nothing billed', () => {
    expect(labels(trayModel(signedOut, snap, DEFAULT_SETTINGS, { cost }).items)[0]).toBe('Signed out')
    const none = trayModel(signedIn, snap, DEFAULT_SETTINGS, { cost: { at: 0, burnRatePerHour: 0, billedCount: 0, instances: [] } })
    expect(none.items[0]!.label).toBe('Signed in as demo')
    expect(none.tooltip).toBe('2 running')
  })
})

describe('the tray’s plan line says the day when it is not today (#24)', () => {
  const planAt = (endsAt: number, at: number) =>
    labels(
      sub(
        trayModel(signedIn, snap, DEFAULT_SETTINGS, {
          cost: { ...cost, at, instances: cost.instances.map((entry) => (entry.instanceId === 'b' ? withPlanEnd(entry, endsAt) : entry)) }
        }).items,
        'b'
      )
    )[0]
  const now = new Date(2026, 10, 26, 9, 0).getTime()

  it.each([
    ['today: the time alone', new Date(2026, 10, 26, 11, 22).getTime(), '$107.52 1-week plan, ends 11:22'],
    ['tomorrow', new Date(2026, 10, 27, 11, 22).getTime(), '$107.52 1-week plan, ends tomorrow 11:22'],
    ['three weeks on', new Date(2026, 11, 17, 11, 22).getTime(), '$107.52 1-week plan, ends Dec 17, 11:22'],
    ['next year', new Date(2027, 0, 3, 8, 5).getTime(), '$107.52 1-week plan, ends Jan 3 2027, 08:05']
  ])('%s', (_when, endsAt, line) => {
    expect(planAt(endsAt, now)).toBe(line)
  })
})
