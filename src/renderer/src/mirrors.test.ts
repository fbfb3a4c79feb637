/**
 * The one list of what mirrors main (mirrors.ts): everything is heard from the start, read when
 * due, and read again after the web shell reconnects (events sent while the socket was down are
 * lost), the balance and the catalog included.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'

const bridge = await vi.hoisted(async () => (await import('./testing/fake-bridge')).createFakeBridge())
vi.mock('./lib/bridge', () => bridge.module)

/** The command each mirror reads with. */
const READS = {
  start: ['profiles.get', 'session.get', 'settings.get', 'warnings.get', 'tunnels.list', 'update.get', 'proxy.get'],
  session: ['instances.get', 'balance.get', 'cost.get', 'catalog.get', 'availability.get', 'templates.list']
}

/** Lets the answers already given be taken up (each store awaits its call, then the next one is made). */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

beforeEach(() => {
  bridge.reset()
  vi.resetModules()
  // The settings store follows the OS colour scheme too; Node has none.
  vi.stubGlobal('window', { matchMedia: () => ({ matches: false, addEventListener() {}, removeEventListener() {} }) })
  return () => vi.unstubAllGlobals()
})

async function answerStart(status: 'signed-in' | 'signed-out'): Promise<void> {
  bridge.answer('profiles.get', { profiles: [], selectedId: 'sandbox' })
  bridge.answer('session.get', { status, profileId: 'sandbox', username: 'demo' })
  bridge.answer('settings.get', { theme: 'light' })
  bridge.answer('warnings.get', [])
  bridge.answer('tunnels.list', [])
  bridge.answer('update.get', { status: 'unsupported', current: '0.1.0', channel: 'stable' })
  bridge.answer('proxy.get', { asking: null })
  await settle()
}

/** The window follows main's mirrors, then the web shell's socket drops and comes back. */
async function followThenReconnect(): Promise<void> {
  const { followMirrors } = await import('./mirrors')
  followMirrors()
  bridge.connection('reconnecting')
  bridge.connection('open')
}

describe('the mirrors of main', () => {
  it('every store listed is heard and read: what needs a session only once signed in', async () => {
    const { MIRRORS, followMirrors, readAllMirrors } = await import('./mirrors')
    const { tunnels } = await import('./instances/tunnels.svelte')
    expect(MIRRORS.map((mirror) => mirror.name)).toEqual([
      'session and profiles',
      'settings',
      'warnings',
      'tunnels',
      'updates',
      'proxy sign-in',
      'instances',
      'balance',
      'cost guard',
      'catalog',
      'availability watches',
      'launch templates'
    ])
    followMirrors()
    const opened = [{ instanceId: 'i-1', remotePort: 8888, localPort: 50_000 }]
    bridge.emit('tunnels', opened)
    expect(tunnels.list).toEqual(opened)

    void readAllMirrors()
    expect(bridge.calls.sort()).toEqual([...READS.start].sort())
    await answerStart('signed-out')
    expect(bridge.calls).toHaveLength(READS.start.length)
  })

  it('after the web shell reconnects, every mirror reads main again, the balance and the catalog included', async () => {
    const { followMirrors } = await import('./mirrors')
    const { balance } = await import('./cost/balance.svelte')
    const { catalog } = await import('./create/catalog.svelte')
    followMirrors()
    bridge.connection('open')
    expect(bridge.calls).toEqual([])

    bridge.connection('reconnecting')
    bridge.connection('open')
    expect(bridge.calls.sort()).toEqual([...READS.start].sort())
    await answerStart('signed-in')
    expect(bridge.calls.slice(READS.start.length).sort()).toEqual([...READS.session].sort())

    const read = { balance: { balance: 12, voucher: 0, credit: 0 }, fetchedAt: 5 }
    bridge.answer('balance.get', read)
    bridge.answer('catalog.get', { profileId: 'sandbox', fetchedAt: 5, refreshing: false, catalog: null, images: [] })
    await settle()
    expect(balance.snapshot).toEqual(read)
    expect(catalog.view?.fetchedAt).toBe(5)
  })

  it('#26: the watches and the templates are read again after a reconnect (their events were lost meanwhile)', async () => {
    const { availability } = await import('./launch/availability.svelte')
    const { templates } = await import('./launch/templates.svelte')
    await followThenReconnect()
    await answerStart('signed-in')
    const watches = { watches: [], checks: { state: 'off', intervalMs: 60_000, lastReadAt: null }, relaunch: [] }
    bridge.answer('availability.get', watches)
    bridge.answer('templates.list', [{ templateId: 't1', name: 'train' }])
    await settle()
    expect(availability.snapshot).toEqual(watches)
    expect(templates.list.map((template) => template.name)).toEqual(['train'])
  })

  it('signed out when it reconnects: what needs a session waits for one', async () => {
    await followThenReconnect()
    await answerStart('signed-out')
    expect(bridge.calls).toHaveLength(READS.start.length)
  })
})
