import { describe, expect, it } from 'vitest'
import type { Instance } from '../../shared/api'
import type { InstancesSnapshot, SessionState, TrayMenuItem } from '../../shared/contract'
import { DEFAULT_SETTINGS } from '../settings/settings-schema'
import { makeInstance } from '../../shared/testing/instance'
import { portUrlOf } from '../../shared/instance-rules'
import { MAX_TRAY_INSTANCES, MAX_TRAY_PROBLEMS, icon, parseTrayItemId, tooltip, trayModel } from './tray-model'

const signedIn: SessionState = { status: 'signed-in', profileId: 'sandbox', username: 'demo', remembered: false, keychain: 'available' }
const expired: SessionState = { ...signedIn, status: 'expired' }
const signedOut: SessionState = { status: 'signed-out', profileId: 'sandbox', remembered: false, keychain: 'available' }
const snap = (instances: Instance[]): InstancesSnapshot => ({ instances, fetchedAt: 1, mode: 'steady' })
const ports = [
  { port: 22, address: '10.0.0.5', nodePort: 30022 },
  { port: 8888, address: '10.0.0.5', nodePort: 30888 }
]
const running = makeInstance({ id: 'r1', name: 'trainer', status: 'Running', nodePorts: ports })
const starting = makeInstance({ id: 's1', name: 'warmup', status: 'Starting', nodePorts: ports })
const stopped = makeInstance({ id: 'x1', name: 'old', status: 'Stopped', nodePorts: ports })
const failed = makeInstance({ id: 'f1', name: 'broken', status: 'StartingFailed', nodePorts: [] })

const byId = (items: TrayMenuItem[], id: string): TrayMenuItem | undefined => {
  for (const item of items) {
    if (item.id === id) return item
    const inner = item.submenu && byId(item.submenu, id)
    if (inner) return inner
  }
  return undefined
}
const enabled = (instance: Instance, action: string): boolean | undefined =>
  byId(trayModel(signedIn, snap([instance]), DEFAULT_SETTINGS).items, `instance:${instance.instanceMetadata.instanceId}:${action}`)?.enabled

describe('tray model', () => {
  it('a part of main that is not working is a line at the top (a few at most; the window lists all)', () => {
    const problems = Array.from({ length: 5 }, (_, index) => ({
      partId: `gpu:${index}`,
      short: `GPU activity for «box-${index}» unavailable`
    }))
    const model = trayModel(signedIn, snap([running]), DEFAULT_SETTINGS, { problems })
    const lines = model.items.filter((item) => item.id.startsWith('problem:'))
    expect(lines.map((item) => [item.label, item.enabled])).toEqual(
      problems.slice(0, MAX_TRAY_PROBLEMS).map((problem) => [`⚠ ${problem.short}`, false])
    )
    expect(model.items.findIndex((item) => item.id === 'problem:gpu:0')).toBeLessThan(
      model.items.findIndex((item) => item.type === 'submenu')
    )
  })

  it('one submenu per instance, titled "name — Status"', () => {
    const model = trayModel(signedIn, snap([running, starting]), DEFAULT_SETTINGS)
    const subs = model.items.filter((i) => i.type === 'submenu')
    expect(subs.map((s) => s.label)).toEqual(['trainer — Running', 'warmup — Starting'])
    expect(subs[0]!.submenu!.filter((i) => i.type !== 'separator').map((i) => i.label)).toEqual([
      'Open notebook',
      'Open terminal',
      'Run a job…',
      'Copy SSH command',
      '8888 → http://10.0.0.5:30888',
      'Launch again…',
      'Stop…',
      'Delete for good…'
    ])
  })

  it.each<[string, Instance, Record<string, boolean>]>([
    ['Running: everything', running, { notebook: true, terminal: true, 'run-job': true, 'copy-ssh': true, 'port:30888': true, stop: true }],
    [
      'Starting: only stop',
      starting,
      { notebook: false, terminal: false, 'run-job': false, 'copy-ssh': false, 'port:30888': false, stop: true }
    ],
    ['Stopped: nothing', stopped, { notebook: false, terminal: false, 'copy-ssh': false, 'port:30888': false, stop: false }],
    ['failed: stop (ends billing)', failed, { notebook: false, terminal: false, 'copy-ssh': false, stop: true }],
    [
      'Running without port 22: no terminal',
      makeInstance({ id: 'n1', name: 'nossh', status: 'Running', nodePorts: [] }),
      { notebook: true, terminal: false, 'copy-ssh': false }
    ],
    ['Stopping: nothing to stop', makeInstance({ id: 't1', name: 'halting', status: 'Stopping', nodePorts: ports }), { stop: false }]
  ])('items enabled only where they work — %s', (_name, instance, expected) => {
    for (const [action, want] of Object.entries(expected)) expect([action, enabled(instance, action)]).toEqual([action, want])
  })

  it.each<[string, SessionState, string[], string[]]>([
    ['signed in', signedIn, ['sign-out'], ['sign-in']],
    ['signed out', signedOut, ['sign-in'], ['sign-out']],
    ['expired', expired, ['sign-in'], ['sign-out']]
  ])('global items when %s', (_name, session, present, absent) => {
    const ids = trayModel(session, snap([running]), DEFAULT_SETTINGS).items.map((i) => i.id)
    for (const id of ['open-window', 'new-instance', 'new-volume', 'refresh', 'quit', ...present]) expect(ids).toContain(id)
    for (const id of absent) expect(ids).not.toContain(id)
  })

  it('signed out: no instances and create actions disabled', () => {
    const model = trayModel(signedOut, snap([running]), DEFAULT_SETTINGS)
    expect(model.items.some((i) => i.type === 'submenu')).toBe(false)
    expect(byId(model.items, 'new-instance')!.enabled).toBe(false)
    expect(byId(model.items, 'open-window')!.enabled).toBe(true)
  })

  it.each<[string, SessionState, Instance[], string]>([
    ['signed out', signedOut, [], 'Cloud Tray — signed out'],
    ['expired', expired, [running], 'Cloud Tray — session expired, sign in again'],
    ['counts', signedIn, [running, running, starting], '2 running · 1 starting'],
    ['mixed', signedIn, [running, failed, stopped], '1 running · 1 failed · 1 stopped'],
    ['empty', signedIn, [], 'Cloud Tray — no instances']
  ])('tooltip: %s', (_name, session, instances, expected) => {
    expect(tooltip(session, instances)).toBe(expected)
  })

  it.each<[string, SessionState, Instance[], 'ok' | 'failing', string]>([
    ['signed out', signedOut, [], 'ok', 'idle'],
    ['nothing running', signedIn, [stopped], 'ok', 'idle'],
    ['running', signedIn, [running, stopped], 'ok', 'running'],
    ['busy beats running', signedIn, [running, starting], 'ok', 'busy'],
    ['failure: attention', signedIn, [running, failed], 'ok', 'attention'],
    ['expired: attention', expired, [running], 'ok', 'attention'],
    ['polling fails: attention', signedIn, [running], 'failing', 'attention']
  ])('icon: %s', (_name, session, instances, health, expected) => {
    expect(icon(session, instances, { state: health })).toBe(expected)
  })

  it('item ids round-trip to actions', () => {
    expect(parseTrayItemId('quit')).toEqual({ kind: 'quit' })
    expect(parseTrayItemId('instance:notebook-1:stop')).toEqual({ kind: 'stop', instanceId: 'notebook-1' })
    expect(parseTrayItemId('instance:notebook-1:run-job')).toEqual({ kind: 'run-job', instanceId: 'notebook-1' })
    expect(parseTrayItemId('instance:notebook-1:port:30888')).toEqual({ kind: 'open-port', instanceId: 'notebook-1', nodePort: 30888 })
    expect(parseTrayItemId('instance:x:rm -rf')).toBeUndefined()
    expect(parseTrayItemId('status')).toBeUndefined()
  })

  it('many instances: the ones needing attention or changing first, the rest as one item', () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      makeInstance({ id: `many-${i}`, name: `stopped ${i}`, status: 'Stopped', nodePorts: [] })
    )
    many.splice(30, 0, failed, starting, running)
    const model = trayModel(signedIn, snap(many), DEFAULT_SETTINGS)
    const subs = model.items.filter((i) => i.type === 'submenu')
    expect(subs).toHaveLength(MAX_TRAY_INSTANCES)
    expect(subs.slice(0, 3).map((s) => s.label)).toEqual(['broken — Failed to start', 'warmup — Starting', 'trainer — Running'])
    expect(byId(model.items, 'more-instances')).toMatchObject({ label: `${43 - MAX_TRAY_INSTANCES} more in Cloud Tray…`, enabled: true })
    const ids = model.items.map((i) => i.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('#12 item 11: an IPv6 port address is bracketed exactly once, bare or bracketed', () => {
    for (const address of ['::1', '[::1]']) {
      const v6 = makeInstance({ id: 'v6', name: 'six', status: 'Running', nodePorts: [{ port: 8888, address, nodePort: 30888 }] })
      const item = byId(trayModel(signedIn, snap([v6]), DEFAULT_SETTINGS).items, 'instance:v6:port:30888')
      expect(item?.label).toBe('8888 → http://[::1]:30888')
      expect(portUrlOf(v6, 30888)).toBe('http://[::1]:30888')
    }
  })

  it('#12 item 7: a port listed twice gets one menu item, so every item id is unique', () => {
    const twice = makeInstance({
      id: 'd1',
      name: 'dup',
      status: 'Running',
      nodePorts: [...ports, { port: 8888, address: '10.0.0.6', nodePort: 30888 }]
    })
    const model = trayModel(signedIn, snap([twice, twice]), DEFAULT_SETTINGS)
    const ids: string[] = []
    const collect = (items: TrayMenuItem[]): void => items.forEach((i) => (ids.push(i.id), i.submenu && collect(i.submenu)))
    collect(model.items)
    expect(new Set(ids).size).toBe(ids.length)
    expect(byId(model.items, 'instance:d1:port:30888')?.label).toBe('8888 → http://10.0.0.5:30888')
  })

  it('#15: "Delete for good…" for every instance not yet released, behind the window\'s confirmation', () => {
    expect(enabled(running, 'terminate')).toBe(true)
    expect(enabled(stopped, 'terminate')).toBe(true)
    expect(enabled(makeInstance({ id: 'g1', name: 'gone', status: 'Released', nodePorts: [] }), 'terminate')).toBe(false)
    expect(parseTrayItemId('instance:r1:terminate')).toEqual({ kind: 'terminate', instanceId: 'r1' })
    const loggedOut = byId(trayModel(expired, snap([running]), DEFAULT_SETTINGS).items, 'instance:r1:terminate')
    expect(loggedOut?.enabled).toBe(false)
  })

  it('#15: the balance line, and "low" below the user\'s threshold', () => {
    const balance = (available: number) => ({
      balance: { balance: available, availableBalance: available, availableVoucherAmount: 0, availableCreditAmount: 0 },
      fetchedAt: 1
    })
    const line = (available: number, threshold: number | null) =>
      byId(
        trayModel(signedIn, snap([]), { ...DEFAULT_SETTINGS, lowBalanceThreshold: threshold }, { balance: balance(available) }).items,
        'balance'
      )?.label
    expect(line(95.2, 10)).toBe('Balance: $95.20')
    expect(line(4.2, 10)).toBe('Balance low: $4.20')
    expect(line(4.2, null)).toBe('Balance: $4.20')
    // #24: vouchers and credits are money too; the tray says them as the window does.
    const withExtras = { balance: { ...balance(95.2).balance, availableVoucherAmount: 5, availableCreditAmount: 2.5 }, fetchedAt: 1 }
    expect(byId(trayModel(signedIn, snap([]), DEFAULT_SETTINGS, { balance: withExtras }).items, 'balance')?.label).toBe(
      'Balance: $95.20 + $7.50 vouchers and credits'
    )
    expect(byId(trayModel(signedIn, snap([]), DEFAULT_SETTINGS).items, 'balance')).toBeUndefined()
    expect(byId(trayModel(signedOut, snap([]), DEFAULT_SETTINGS, { balance: balance(5) }).items, 'balance')).toBeUndefined()
  })

  it("#15: a stuck start says so; statuses read in people's words", () => {
    const stuck = makeInstance({ id: 'st', name: 'pulling', status: 'Starting', nodePorts: [] })
    const snapshot = {
      ...snap([stuck, failed]),
      stuck: [{ instanceId: 'st', name: 'pulling', status: 'Starting', reason: 'back-off' as const, since: 1 }]
    }
    const subs = trayModel(signedIn, snapshot, DEFAULT_SETTINGS).items.filter((i) => i.type === 'submenu')
    expect(subs.map((s) => s.label)).toEqual(['pulling — stuck starting', 'broken — Failed to start'])
  })

  it('#15: on an API-key session the notebook item says it asks for the password, until it was given', () => {
    const keyed: SessionState = { ...signedIn, method: 'api-key' }
    expect(byId(trayModel(keyed, snap([running]), DEFAULT_SETTINGS).items, 'instance:r1:notebook')?.label).toBe(
      'Open notebook (asks for your password once)…'
    )
    const given = { ...keyed, notebookSignInUntil: 2 }
    expect(byId(trayModel(given, snap([running]), DEFAULT_SETTINGS).items, 'instance:r1:notebook')?.label).toBe('Open notebook')
  })
})

describe('tray tunnels', () => {
  const jupyter = {
    tunnelId: 'tun-1',
    instanceId: 'r1',
    remotePort: 8888,
    label: 'Jupyter',
    localAddress: '127.0.0.1:8888',
    state: 'open' as const
  }
  const withTunnels = (instance: Instance, tunnels = [jupyter]) =>
    trayModel(signedIn, snap([instance]), DEFAULT_SETTINGS, {
      tunnels: tunnels.map((t) => ({ ...t, instanceId: instance.instanceMetadata.instanceId }))
    }).items

  it('offers the presets (a forwarded one says so) and "Other port…" on a running instance', () => {
    const forward = byId(withTunnels(running), 'instance:r1:forward')!
    expect(forward.enabled).toBe(true)
    expect(forward.submenu!.filter((i) => i.type !== 'separator').map((i) => [i.label, i.enabled])).toEqual([
      ['Jupyter (8888) — forwarded', false],
      ['TensorBoard (6006)', true],
      ['vLLM / OpenAI API (8000)', true],
      ['Gradio (7860)', true],
      ['Streamlit (8501)', true],
      ['Other port…', true]
    ])
    expect(byId(withTunnels(starting), 'instance:s1:forward')!.enabled).toBe(false)
  })

  it('lists each tunnel with open, copy and stop; a waiting one can only be stopped', () => {
    const entry = byId(withTunnels(running), 'instance:r1:tunnel:tun-1')!
    expect(entry.label).toBe('127.0.0.1:8888 → Jupyter (8888)')
    expect(entry.submenu!.map((i) => [i.label, i.enabled])).toEqual([
      ['Open http://127.0.0.1:8888', true],
      ['Copy 127.0.0.1:8888', true],
      ['Stop forwarding', true]
    ])
    const waiting = byId(
      withTunnels(stopped, [{ ...jupyter, remotePort: 5000, label: undefined as never, state: 'waiting' as never }]),
      'instance:x1:tunnel:tun-1'
    )!
    expect(waiting.label).toBe('waiting for the instance → port 5000')
    expect(waiting.submenu!.map((i) => i.enabled)).toEqual([false, false, true])
  })

  it('an ended tunnel (its instance stopped and will not run again) says so and offers only Remove (#24)', () => {
    const ended = byId(withTunnels(stopped, [{ ...jupyter, state: 'ended' as never }]), 'instance:x1:tunnel:tun-1')!
    expect(ended.label).toBe('ended → Jupyter (8888)')
    expect(ended.submenu!.map((i) => [i.label, i.enabled])).toEqual([
      ['Open http://127.0.0.1:8888', false],
      ['Copy 127.0.0.1:8888', false],
      ['Remove', true]
    ])
  })

  it('has no tunnel items when the core gives no tunnels (older callers)', () => {
    expect(byId(trayModel(signedIn, snap([running]), DEFAULT_SETTINGS).items, 'instance:r1:forward')).toBeUndefined()
  })

  it('parses tunnel item ids, never mistaking one for another action', () => {
    expect(parseTrayItemId('instance:notebook-1:forward:8888')).toEqual({ kind: 'forward', instanceId: 'notebook-1', remotePort: 8888 })
    expect(parseTrayItemId('instance:notebook-1:forward-other')).toEqual({ kind: 'forward-other', instanceId: 'notebook-1' })
    expect(parseTrayItemId('instance:notebook-1:tunnel:tun-ab-12:stop')).toEqual({
      kind: 'tunnel-stop',
      instanceId: 'notebook-1',
      tunnelId: 'tun-ab-12'
    })
    expect(parseTrayItemId('instance:notebook-1:tunnel:tun-ab-12:copy')).toEqual({
      kind: 'tunnel-copy',
      instanceId: 'notebook-1',
      tunnelId: 'tun-ab-12'
    })
    expect(parseTrayItemId('instance:notebook-1:tunnel:tun-ab-12')).toBeUndefined()
    expect(parseTrayItemId('instance:notebook-1:forward')).toBeUndefined()
  })
})
