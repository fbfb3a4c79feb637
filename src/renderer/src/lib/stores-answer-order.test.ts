/**
 * The window's stores keep the newest word when an event and a call's answer arrive together
 * (the CI failure of 2026-11-23: the balance's event landed with an older `balance.get` answer,
 * which rolled the sidebar back to "no balance" for a minute).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest'

const bridge = await vi.hoisted(async () => (await import('../testing/fake-bridge')).createFakeBridge())
vi.mock('./bridge', () => bridge.module)

/** One downlink chunk: the answer is read first, then the event, as the transport does. */
function sameChunk(command: string, answer: unknown, event: string, payload: unknown): void {
  bridge.answer(command, answer)
  bridge.emit(event, payload)
}

/** Loads `store` (listening first) while its call's answer and an event land in one chunk. */
async function loadAmid(
  store: { listen(): unknown; load(): Promise<unknown> },
  command: string,
  answer: unknown,
  event: string,
  payload: unknown
): Promise<void> {
  store.listen()
  const loading = store.load()
  sameChunk(command, answer, event, payload)
  await loading
}

/** The answer is taken when no event came while the call was out. */
const alone = (command: string, answer: unknown): void => bridge.answer(command, answer)

beforeEach(() => {
  bridge.reset()
  vi.resetModules()
})

describe('an answer made before the event that lands with it', () => {
  it('balance: the read amount stays', async () => {
    const { balance } = await import('../cost/balance.svelte')
    const read = { balance: { balance: 4.2, voucher: 5, credit: 0 }, fetchedAt: 1_000 }
    await loadAmid(balance, 'balance.get', { balance: null, fetchedAt: null }, 'balance', read)
    expect(balance.snapshot).toEqual(read)
  })

  it('instances: the polled list stays', async () => {
    const { instances } = await import('../instances/instances.svelte')
    const polled = { instances: [], fetchedAt: 2_000, mode: 'steady' }
    await loadAmid(instances, 'instances.get', { instances: [], fetchedAt: null, mode: 'steady' }, 'instances', polled)
    expect(instances.snapshot).toEqual(polled)
  })

  it('session: signed in stays signed in', async () => {
    const { session } = await import('../account/session.svelte')
    session.listen()
    const loading = session.load()
    alone('profiles.get', { profiles: [], selectedId: 'sandbox' })
    const signedIn = { status: 'signed-in', profileId: 'sandbox', username: 'demo' }
    sameChunk('session.get', { status: 'signed-out', profileId: 'sandbox' }, 'session', signedIn)
    await loading
    expect(session.state).toEqual(signedIn)
  })

  it('settings: the saved change stays', async () => {
    // The settings store follows the OS colour scheme too; Node has none.
    vi.stubGlobal('window', { matchMedia: () => ({ matches: false, addEventListener() {}, removeEventListener() {} }) })
    const { appSettings } = await import('./settings.svelte')
    const saved = { theme: 'dark', lowBalanceThreshold: 50 }
    await loadAmid(appSettings, 'settings.get', { theme: 'light', lowBalanceThreshold: 10 }, 'settings', saved)
    vi.unstubAllGlobals()
    expect(appSettings.current).toEqual(saved)
  })

  it('tunnels: a tunnel that just opened stays listed', async () => {
    const { tunnels } = await import('../instances/tunnels.svelte')
    const opened = [{ instanceId: 'i-1', remotePort: 8888, localPort: 50_000 }]
    await loadAmid(tunnels, 'tunnels.list', [], 'tunnels', opened)
    expect(tunnels.list).toEqual(opened)
  })

  it('catalog: the fresh read stays', async () => {
    const { catalog } = await import('../create/catalog.svelte')
    const fresh = { profileId: 'sandbox', fetchedAt: 3_000, images: [] }
    await loadAmid(catalog, 'catalog.get', { profileId: 'sandbox', fetchedAt: null, images: [] }, 'catalog', fresh)
    expect(catalog.view).toEqual(fresh)
  })

  it('warnings: a warning that came while the list was out is kept beside it', async () => {
    const { warnings } = await import('./warnings.svelte')
    warnings.listen()
    const loading = warnings.load()
    const older = { id: 'settings-reset', message: 'Settings were set aside.' }
    const newer = { id: 'no-keychain', message: 'No keychain.' }
    sameChunk('warnings.get', [older], 'warning', newer)
    await loading
    expect(warnings.list).toEqual([older, newer])
  })

  it('cost guard: the newer snapshot stays', async () => {
    const { cost } = await import('../cost/cost.svelte')
    const stop = cost.listen()
    const loading = cost.load()
    const newer = { at: 2_000, instances: [] }
    sameChunk('cost.get', { at: 1_000, instances: [] }, 'cost', newer)
    await loading
    stop()
    expect(cost.snapshot).toEqual(newer)
  })

  it('with no event in between, the answer is shown', async () => {
    const { balance } = await import('../cost/balance.svelte')
    balance.listen()
    const loading = balance.load()
    const read = { balance: { balance: 1, voucher: 0, credit: 0 }, fetchedAt: 1 }
    alone('balance.get', read)
    await loading
    expect(balance.snapshot).toEqual(read)
  })
})
