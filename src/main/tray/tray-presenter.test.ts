import { describe, expect, it } from 'vitest'
import type { Events, InstancesSnapshot, SessionState, TrayModel } from '../../shared/contract'
import { EventHub } from '../event-hub'
import { DEFAULT_SETTINGS } from '../settings/settings-schema'
import { TRAY_EVENTS, TrayPresenter } from './tray-presenter'

function rig(options: { failingTray?: boolean } = {}) {
  let session: SessionState = { status: 'signed-out', profileId: 'sandbox', remembered: false, keychain: 'available' }
  let profileName = 'Sandbox'
  const snapshot: InstancesSnapshot = { instances: [], fetchedAt: null, mode: 'paused' }
  const shown: TrayModel[] = []
  const hub = new EventHub()
  const presenter = new TrayPresenter({
    events: hub,
    account: { state: () => session, profileName: () => profileName },
    watcher: { snapshot: () => snapshot },
    settings: { get: () => DEFAULT_SETTINGS },
    platform: {
      setTray: (model) => {
        if (options.failingTray) throw new Error('no tray on this desktop')
        shown.push(model)
      }
    }
  })
  return {
    hub,
    presenter,
    shown,
    signIn: () => (session = { ...session, status: 'signed-in', username: 'demo' }),
    rename: (name: string) => void (profileName = name)
  }
}

/** The payload does not matter to the presenter: it reads the parts. */
const any = {} as never

describe('TrayPresenter', () => {
  it('draws nothing until an event it shows arrives, then hands on the menu only when it changed', () => {
    const { hub, presenter, shown, signIn } = rig()
    expect(shown).toEqual([])
    hub.emit('profiles', any)
    hub.emit('settings', DEFAULT_SETTINGS)
    expect(shown).toHaveLength(1)
    signIn()
    hub.emit('session', any)
    expect(shown).toHaveLength(2)
    expect(presenter.model().items[0]?.label).toBe('Signed in as demo · Sandbox')
  })

  it.each(TRAY_EVENTS)('redraws on %s', (event) => {
    const { hub, shown, rename } = rig()
    rename(event)
    hub.emit(event, (event === 'watch.health' ? { state: 'ok' } : any) as Events[typeof event])
    expect(shown.at(-1)?.items[0]?.label).toBe(`Signed out · ${event}`)
  })

  it('shows a failing watcher until it recovers', () => {
    const { hub, presenter } = rig()
    hub.emit('watch.health', { state: 'failing', error: { kind: 'network', message: 'down' } })
    expect(presenter.model().icon).toBe('attention')
    hub.emit('watch.health', { state: 'ok' })
    expect(presenter.model().icon).toBe('idle')
  })

  it('keeps working where the desktop has no tray', () => {
    const { presenter } = rig({ failingTray: true })
    expect(() => presenter.model()).not.toThrow()
    expect(presenter.model().tooltip).toBe('Cloud Tray — signed out')
  })

  it('computes the menu on first ask', () => {
    const { presenter, shown } = rig()
    expect(presenter.model().tooltip).toBe('Cloud Tray — signed out')
    expect(shown).toHaveLength(1)
  })
})
