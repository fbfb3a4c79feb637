import { describe, expect, it } from 'vitest'
import { createCoreRig, createRequest, recordingPlatform, type CoreRig } from './testing/core-harness'
import { closeAfterEach } from '../shared/testing/close-after-each'

const rigs = closeAfterEach<CoreRig>()

describe('createAppCore against the emulator', () => {
  it('signs in to the Sandbox and lists instances', async () => {
    const rig = rigs.track(await createCoreRig())
    const profiles = await rig.call('profiles.get')
    expect(profiles).toMatchObject({ ok: true, value: { selectedId: 'sandbox', lastUsername: 'demo' } })
    // The "Sandbox" here is the test's own emulator (baseUrlOverride): no Sandbox password to offer.
    expect(profiles.ok && profiles.value.demoPassword).toBeUndefined()
    await rig.login()
    const session = await rig.call('session.get')
    expect(session).toMatchObject({ ok: true, value: { status: 'signed-in', username: 'demo', profileId: 'sandbox' } })
    await rig.emulator.control.seedInstances('demo', 2)
    const snapshot = await rig.call('instances.refresh')
    expect(snapshot.ok && snapshot.value.instances).toHaveLength(2)
  })

  it('answers bad input and unknown commands with errors, never a rejection', async () => {
    const rig = rigs.track(await createCoreRig())
    expect(await rig.call('instances.stop', { instanceId: 3 })).toMatchObject({
      ok: false,
      error: { kind: 'bad-input', field: 'instanceId' }
    })
    expect(await rig.call('nope' as never)).toMatchObject({ ok: false, error: { kind: 'bad-input' } })
    expect(await rig.call('instances.refresh')).toMatchObject({ ok: false, error: { kind: 'no-session' } })
    const wrong = await rig.call('session.login', { profileId: 'sandbox', username: 'demo', password: 'nope', rememberMe: false })
    expect(wrong).toMatchObject({ ok: false, error: { kind: 'bad-credentials' } })
  })

  it('a token that expires mid-create: expired event, re-login, the create runs exactly once', async () => {
    const rig = rigs.track(await createCoreRig())
    await rig.login()
    await rig.call('instances.refresh') // the watcher's first poll is done: only the create meets the expiry
    rig.emulator.control.expireTokens('demo')
    const r = rig
    const relogin = new Promise<void>((resolve) => {
      const off = r.core.subscribe((event, payload) => {
        if (event === 'session.expired' && (payload as { pending: string | null }).pending === 'instances.create') {
          off()
          void r.login().then(resolve)
        }
      })
    })
    const created = await rig.call('instances.create', { request: createRequest(rig.emulator, 'mid-create') })
    await relogin
    expect(created.ok).toBe(true)
    const mine = rig.emulator.control.instances('demo').filter((i) => i.instanceSpecInfo.name === 'mid-create')
    expect(mine).toHaveLength(1)
    expect(created.ok && created.value.instanceId).toBe(mine[0]!.instanceMetadata.instanceId)
    expect(rig.of('session').map((s) => s.status)).toEqual(['signed-in', 'expired', 'signed-in'])
    expect(rig.of('session.expired')).toEqual([{ pending: 'instances.create' }])
  })

  it('a parked command resolves with not-logged-in when the user signs out instead', async () => {
    const rig = rigs.track(await createCoreRig())
    await rig.login()
    rig.emulator.control.expireTokens('demo')
    const r = rig
    r.core.subscribe((event) => {
      if (event === 'session.expired') void r.call('session.logout')
    })
    const created = await rig.call('instances.create', { request: createRequest(rig.emulator, 'never') })
    expect(created).toMatchObject({ ok: false, error: { kind: 'not-logged-in' } })
    expect(rig.emulator.control.instances('demo')).toHaveLength(0)
  })

  it('a restart resumes a remembered session; logout forgets it', async () => {
    const rig = rigs.track(await createCoreRig())
    await rig.login(true)
    await rig.restart()
    expect(await rig.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-in', remembered: true } })
    await rig.call('session.logout')
    await rig.restart()
    expect(await rig.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-out' } })
  })

  it('without remember me, a restart asks to sign in again', async () => {
    const rig = rigs.track(await createCoreRig())
    await rig.login(false)
    await rig.restart()
    expect(await rig.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-out' } })
  })

  it('warns 10 minutes before the token expires, once', async () => {
    const rig = rigs.track(await createCoreRig({ emulator: { tokenTtlSeconds: 20 * 60 } }))
    await rig.login()
    const session = await rig.call('session.get')
    const expiresAt = session.ok ? session.value.expiresAt! : 0
    expect(Math.abs(expiresAt - (Date.now() + 20 * 60_000))).toBeLessThan(60_000)
    rig.clock.advance(expiresAt - 10 * 60_000 - rig.clock.now() - 1_000)
    expect(rig.of('session.expiring')).toEqual([])
    rig.clock.advance(2_000)
    expect(rig.of('session.expiring')).toEqual([{ expiresAt }])
    expect(rig.platform.notifications.map((n) => n.kind)).toEqual(['expiring'])
    rig.clock.advance(5 * 60_000)
    expect(rig.of('session.expiring')).toHaveLength(1)
  })

  it('tray actions: navigate, confirm stop in the window, refuse disabled or stale items', async () => {
    const rig = rigs.track(await createCoreRig())
    await rig.login()
    const [id] = await rig.emulator.control.seedInstances('demo', 1, { status: 'Stopped' })
    await rig.call('instances.refresh')
    expect(await rig.call('tray.activate', { itemId: 'new-instance' })).toEqual({ ok: true, value: undefined })
    expect(rig.of('navigate').at(-1)).toEqual({ view: 'create-instance' })
    expect(rig.platform.shown).toBeGreaterThan(0)
    expect(await rig.call('tray.activate', { itemId: `instance:${id}:stop` })).toMatchObject({ ok: false, error: { kind: 'not-allowed' } })
    rig.emulator.control.setStatus(id!, 'Running')
    await rig.call('instances.refresh')
    expect(await rig.call('tray.activate', { itemId: `instance:${id}:stop` })).toEqual({ ok: true, value: undefined })
    expect(rig.of('navigate').at(-1)).toEqual({ view: 'instances', instanceId: id, confirm: 'stop' })
    expect(await rig.call('tray.activate', { itemId: 'instance:gone:stop' })).toMatchObject({ ok: false, error: { kind: 'not-allowed' } })
    expect(await rig.call('tray.activate', { itemId: 'sign-out' })).toEqual({ ok: true, value: undefined })
    expect(await rig.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-out' } })
  })

  it('settings updates are saved, announced, and drive start-at-login', async () => {
    const rig = rigs.track(await createCoreRig())
    const updated = await rig.call('settings.update', { startAtLogin: true, pollIntervals: { steadyMs: 60_000 } })
    expect(updated).toMatchObject({ ok: true, value: { startAtLogin: true, pollIntervals: { fastMs: 2_500, steadyMs: 60_000 } } })
    expect(rig.platform.startAtLogin).toEqual([true])
    expect(rig.of('settings')).toHaveLength(1)
    expect(await rig.call('settings.update', { theme: 'neon' })).toMatchObject({ ok: false, error: { kind: 'bad-input', field: 'theme' } })
    await rig.restart()
    expect(await rig.call('settings.get')).toMatchObject({ ok: true, value: { startAtLogin: true } })
  })

  it('external.open opens only http(s) links', async () => {
    const rig = rigs.track(await createCoreRig())
    expect(await rig.call('external.open', { url: 'https://example.com/docs' })).toEqual({ ok: true, value: undefined })
    expect(await rig.call('external.open', { url: 'file:///etc/passwd' })).toMatchObject({ ok: false, error: { kind: 'not-allowed' } })
    expect(await rig.call('external.open', { url: 'javascript:alert(1)' })).toMatchObject({ ok: false, error: { kind: 'not-allowed' } })
    expect(rig.platform.external).toEqual(['https://example.com/docs'])
  })

  it('tray: copy the SSH command and open the notebook of a running instance', async () => {
    const rig = rigs.track(await createCoreRig())
    await rig.login()
    const [id] = await rig.emulator.control.seedInstances('demo', 1)
    await rig.call('instances.refresh')
    expect(await rig.call('tray.activate', { itemId: `instance:${id}:copy-ssh` })).toEqual({ ok: true, value: undefined })
    expect(rig.platform.clipboard).toHaveLength(1)
    expect(rig.platform.clipboard[0]).toMatch(/^ssh -p \d+ \S+@\S+/)
    expect(await rig.call('tray.activate', { itemId: `instance:${id}:notebook` })).toEqual({ ok: true, value: undefined })
    expect(rig.platform.notebooks.map((n) => n.instanceId)).toEqual([id])
  })

  it('a user profile for another deployment: add, select, sign in, refuse removal while signed in', async () => {
    const rig = rigs.track(await createCoreRig())
    const saved = await rig.call('profiles.save', { name: 'Lab', baseUrl: rig.emulator.baseUrl })
    if (!saved.ok) throw new Error(saved.error.message)
    const lab = saved.value.profiles.find((p) => p.name === 'Lab')!
    const selected = await rig.call('profiles.select', { id: lab.id })
    expect(selected).toMatchObject({ ok: true, value: { selectedId: lab.id, lastUsername: '' } })
    expect(selected.ok && selected.value.demoPassword).toBeUndefined()
    expect(rig.of('session').at(-1)).toMatchObject({ status: 'signed-out', profileId: lab.id })
    const login = await rig.call('session.login', { profileId: lab.id, username: 'demo', password: 'demo', rememberMe: false })
    expect(login).toMatchObject({ ok: true, value: { status: 'signed-in', profileId: lab.id } })
    expect(await rig.call('profiles.remove', { id: lab.id })).toMatchObject({ ok: false, error: { kind: 'not-allowed' } })
    await rig.call('session.logout')
    expect(await rig.call('profiles.get')).toMatchObject({ ok: true, value: { selectedId: lab.id, lastUsername: 'demo' } })
    const removed = await rig.call('profiles.remove', { id: lab.id })
    expect(removed).toMatchObject({ ok: true, value: { selectedId: 'sandbox' } })
  })
})

// Who hears an event, and in which order (event-hub.ts, core.ts): the transports first, then the
// SSH wing, the cost guard and the tray. Seen through the core against the emulator: the poll
// that finds a Running instance Stopped reaches the window as `instances` before anything a part
// says about it; the wing ends the terminal's connection (`ssh.status`) before the guard looks
// again (`cost`), and the tray redraws only after both.
describe('the order in which main hears an event', () => {
  it('transports first, then the SSH wing, the cost guard and the tray', async () => {
    const timeline: string[] = []
    const platform = recordingPlatform()
    const setTray = platform.setTray
    platform.setTray = (model) => {
      timeline.push('tray')
      setTray(model)
    }
    const rig = rigs.track(await createCoreRig({ core: { platform } }))
    rig.core.subscribe((event) => void timeline.push(event))
    await rig.login()
    const [instanceId] = await rig.emulator.control.seedInstances('demo', 1, { status: 'Running' })
    await rig.call('instances.refresh')
    const opened = await rig.call('ssh.open', { instanceId, cols: 80, rows: 24 })
    expect(opened.ok).toBe(true)

    rig.emulator.control.setStatus(instanceId!, 'Stopped')
    timeline.length = 0
    await rig.call('instances.refresh')
    const after = timeline.slice(timeline.indexOf('instances'))
    const stopped = after.indexOf('ssh.status')
    const looked = after.indexOf('cost')
    const redrawn = after.indexOf('tray')
    expect(after[0]).toBe('instances')
    expect(stopped).toBeGreaterThan(0)
    expect(looked).toBeGreaterThan(stopped)
    expect(redrawn).toBeGreaterThan(looked)
    expect(rig.of('ssh.status').at(-1)).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/is Stopped, so its connection was closed/)
    })
  })
})
