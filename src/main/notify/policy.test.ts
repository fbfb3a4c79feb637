import { describe, expect, it } from 'vitest'
import type { Transition } from '../../shared/contract'
import { lowBalanceNotification, notificationsFor, stuckNotification, type AppActions } from './policy'

const all = { ready: true, failed: true, stopped: true, released: true, stuck: true }
const none: AppActions = { stopping: new Set(), terminating: new Set(), created: new Set() }
const t = (from: string | null, to: string | null, extra: Partial<Transition> = {}): Transition => ({
  instanceId: 'i1',
  name: 'train',
  from,
  to,
  ...extra
})
const run = (transitions: Transition[], actions = none, prefs = all) =>
  notificationsFor(transitions, actions, prefs, (kind, id) => `${kind}:${id ?? '*'}`)

describe('notification policy', () => {
  it.each<[string, Transition[], AppActions, { kind: string; title: string; body?: string }[]]>([
    ['→ Running: ready', [t('Starting', 'Running')], none, [{ kind: 'ready', title: '«train» is ready' }]],
    ['first seen Running, not created here: nothing', [t(null, 'Running')], none, []],
    [
      'first seen Running, created here: ready',
      [t(null, 'Running')],
      { ...none, created: new Set(['i1']) },
      [{ kind: 'ready', title: '«train» is ready' }]
    ],
    [
      '→ StartingFailed: failed with the diagnosis',
      [t('Starting', 'StartingFailed', { diagnosisMessage: 'No capacity in region', message: 'failed' })],
      none,
      [{ kind: 'failed', title: '«train» failed to start', body: 'No capacity in region' }]
    ],
    [
      '→ InitializationFailed: failed',
      [t('Initializing', 'InitializationFailed')],
      none,
      [{ kind: 'failed', title: '«train» failed to start', body: 'The cloud gave no reason.' }]
    ],
    ['→ Stopped not asked for (preemption): stopped', [t('Running', 'Stopped')], none, [{ kind: 'stopped', title: '«train» stopped' }]],
    ['→ Stopped asked for by this app: nothing', [t('Stopping', 'Stopped')], { ...none, stopping: new Set(['i1']) }, []],
    ['→ Released: released', [t('Stopped', 'Released')], none, [{ kind: 'released', title: '«train» was released' }]],
    [
      'disappeared: released',
      [t('Running', null)],
      none,
      [{ kind: 'released', title: '«train» was released', body: 'It is no longer in your instance list.' }]
    ],
    ['disappeared after this app terminated it: nothing', [t('Running', null)], { ...none, terminating: new Set(['i1']) }, []],
    ['→ Starting: nothing', [t('Initializing', 'Starting')], none, []]
  ])('%s', (_name, transitions, actions, expected) => {
    const { notifications } = run(transitions, actions)
    expect(notifications).toHaveLength(expected.length)
    notifications.forEach((n, i) =>
      expect(n).toMatchObject({ ...expected[i], ...(expected[i]!.kind !== 'summary' ? { instanceId: 'i1' } : {}) })
    )
  })

  it('reports which app actions settled', () => {
    const { settled } = run([t('Stopping', 'Stopped')], { ...none, stopping: new Set(['i1']) })
    expect(settled.stopping).toEqual(['i1'])
  })

  it('each kind can be switched off', () => {
    expect(run([t('Starting', 'Running')], none, { ...all, ready: false }).notifications).toEqual([])
    expect(run([t('Running', 'Stopped')], none, { ...all, stopped: false }).notifications).toEqual([])
  })

  it('up to 3 at once are shown one by one; more become one summary', () => {
    const many = (n: number): Transition[] =>
      Array.from({ length: n }, (_, i) => t('Starting', 'Running', { instanceId: `i${i}`, name: `n${i}` }))
    expect(run(many(3)).notifications.map((n) => n.kind)).toEqual(['ready', 'ready', 'ready'])
    const summary = run(many(4)).notifications
    expect(summary).toHaveLength(1)
    expect(summary[0]).toMatchObject({ kind: 'summary', title: '4 instances changed' })
    expect(summary[0]!.body).toContain('«n3» is ready')
  })
})

describe('#15: stuck starts and a low balance', () => {
  it('a back-off says what the cloud reports and what to do', () => {
    const n = stuckNotification(
      'id',
      {
        instanceId: 'i',
        name: 'train',
        status: 'Starting',
        reason: 'back-off',
        since: 0,
        diagnosisReason: 'BackOff',
        diagnosisMessage: 'Back-off restarting failed container download-image'
      },
      60_000
    )
    expect(n).toMatchObject({ kind: 'stuck', title: '«train» is stuck starting', instanceId: 'i' })
    expect(n.body).toMatch(/reports BackOff: “Back-off restarting failed container download-image”.*delete it for good/)
  })

  it('no progress says for how long', () => {
    const n = stuckNotification(
      'id',
      { instanceId: 'i', name: 'train', status: 'Initializing', reason: 'no-progress', since: 0 },
      20 * 60_000
    )
    expect(n.body).toMatch(/“Initializing” for 20 minutes without progress/)
  })

  it('a low balance names the amount and the threshold', () => {
    expect(lowBalanceNotification('id', 4.2, 10)).toMatchObject({
      kind: 'low-balance',
      title: 'Balance low: $4.20',
      body: expect.stringMatching(/below the \$10.00 you set/)
    })
  })

  it('the Sandbox’s low balance asks for practice money in its Settings, not a console it does not have (#24)', () => {
    const sandbox = lowBalanceNotification('id', 4.2, 10, true)
    expect(sandbox.title).toBe('Practice balance low: $4.20')
    expect(sandbox.body).toMatch(/Add practice money in Settings → Sandbox/)
    expect(sandbox.body).not.toMatch(/console/)
    expect(lowBalanceNotification('id', 4.2, 10).body).toMatch(/Top up in your provider's console/)
  })
})
