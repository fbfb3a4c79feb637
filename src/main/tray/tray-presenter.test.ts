import { describe, expect, it } from 'vitest'
import type { InstancesSnapshot, SessionState, TrayModel } from '../../shared/contract'
import { DEFAULT_SETTINGS } from '../settings/settings-schema'
import { TrayPresenter } from './tray-presenter'

function rig(options: { failingTray?: boolean } = {}) {
  let session: SessionState = { status: 'signed-out', profileId: 'sandbox', remembered: false, keychain: 'available' }
  const snapshot: InstancesSnapshot = { instances: [], fetchedAt: null, mode: 'paused' }
  const shown: TrayModel[] = []
  const presenter = new TrayPresenter({
    session: { state: () => session, profileName: () => 'Sandbox' },
    instances: { snapshot: () => snapshot },
    settings: { get: () => DEFAULT_SETTINGS },
    platform: {
      setTray: (model) => {
        if (options.failingTray) throw new Error('no tray on this desktop')
        shown.push(model)
      }
    }
  })
  return { presenter, shown, signIn: () => (session = { ...session, status: 'signed-in', username: 'demo' }) }
}

describe('TrayPresenter', () => {
  it('hands on the menu only when it changed', () => {
    const { presenter, shown, signIn } = rig()
    presenter.update()
    presenter.update()
    expect(shown).toHaveLength(1)
    signIn()
    presenter.update()
    expect(shown).toHaveLength(2)
    expect(presenter.model().items[0]?.label).toBe('Signed in as demo · Sandbox')
  })

  it('shows a failing watcher until it recovers', () => {
    const { presenter } = rig()
    presenter.setHealth({ state: 'failing', error: { kind: 'network', message: 'down' } })
    expect(presenter.model().icon).toBe('attention')
    presenter.setHealth({ state: 'ok' })
    expect(presenter.model().icon).toBe('idle')
  })

  it('keeps working where the desktop has no tray', () => {
    const { presenter } = rig({ failingTray: true })
    expect(() => presenter.update()).not.toThrow()
    expect(presenter.model().tooltip).toBe('Cloud Tray — signed out')
  })

  it('computes the menu on first ask', () => {
    const { presenter, shown } = rig()
    expect(presenter.model().tooltip).toBe('Cloud Tray — signed out')
    expect(shown).toHaveLength(1)
  })
})
