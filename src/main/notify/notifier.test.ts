import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import type { AppNotification, Transition } from '../../shared/contract'
import { EventHub } from '../event-hub'
import { DEFAULT_SETTINGS } from '../settings/settings-schema'
import { Notifier } from './notifier'

function rig(options: { failingDesktop?: boolean } = {}) {
  const desktop: AppNotification[] = []
  const clock = new ManualClock(0)
  const hub = new EventHub()
  const notifier = new Notifier({
    events: hub,
    platform: {
      showNotification: (n) => {
        if (options.failingDesktop) throw new Error('no notification service')
        desktop.push(n)
      }
    },
    settings: { get: () => DEFAULT_SETTINGS },
    clock,
    emit: hub.emit
  })
  return { notifier, hub, desktop, clock }
}

const stopped = (instanceId: string): Transition => ({ instanceId, name: instanceId, from: 'Running', to: 'Stopped' })

describe('Notifier', () => {
  it('delivers to the desktop, each with its own id', () => {
    const { hub, desktop } = rig()
    hub.emit('transitions', [stopped('a'), stopped('b')])
    expect(desktop.map((n) => n.id)).toEqual(['stopped-a-1', 'stopped-b-2'])
  })

  it('carries on when the desktop has no notification service', () => {
    const { notifier } = rig({ failingDesktop: true })
    expect(() => notifier.deliver({ id: 'n', kind: 'stopped', title: 't', body: 'b' })).not.toThrow()
  })

  it('does not announce this app’s own stop, once; a failed request is forgotten', () => {
    const { notifier, hub, desktop } = rig()
    notifier.noteOwnAction('stop', 'a')
    notifier.noteOwnAction('stop', 'b')
    notifier.forgetOwnAction('stop', 'b')
    hub.emit('transitions', [stopped('a'), stopped('b')])
    expect(desktop.map((n) => n.instanceId)).toEqual(['b'])
    // Seen once, the own stop is settled: a later stop by someone else is news again.
    hub.emit('transitions', [stopped('a')])
    expect(desktop.map((n) => n.instanceId)).toEqual(['b', 'a'])
  })

  it('forgets every own action at sign-out, not when the session only expired', () => {
    const { notifier, hub, desktop } = rig()
    const session = { profileId: 'sandbox', remembered: false, keychain: 'available' } as const
    notifier.noteOwnAction('stop', 'a')
    notifier.noteOwnAction('stop', 'b')
    hub.emit('session', { ...session, status: 'expired' })
    hub.emit('transitions', [stopped('a')])
    expect(desktop).toHaveLength(0)
    hub.emit('session', { ...session, status: 'signed-out' })
    hub.emit('transitions', [stopped('b')])
    expect(desktop).toHaveLength(1)
  })

  it('#26: a spot instance stopped without this app asking is a reclaim: told on the hub, not as “stopped”', () => {
    const { notifier, hub, desktop } = rig()
    const reclaims: unknown[] = []
    hub.on('reclaimed', (list) => reclaims.push(list))
    notifier.noteOwnAction('stop', 'mine')
    hub.emit('transitions', [{ ...stopped('spot-a'), spot: true }, { ...stopped('mine'), spot: true }, stopped('on-demand')])
    expect(reclaims).toEqual([[{ instanceId: 'spot-a', name: 'spot-a' }]])
    expect(desktop.map((n) => n.instanceId)).toEqual(['on-demand'])
  })

  it('warns before the session ends, in whole minutes left', () => {
    const { hub, desktop, clock } = rig()
    hub.emit('session.expiring', { expiresAt: clock.now() + 10 * 60_000 + 20_000 })
    expect(desktop[0]).toMatchObject({ kind: 'expiring', body: expect.stringContaining('in 10 minutes') })
  })
})
