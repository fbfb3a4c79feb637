/**
 * #12 item 4 over real sockets: the token goes only to the origin that issued it. Two
 * emulators on two ports; the second sits behind a recorder that keeps every request's Cookie
 * header, so "never receives the token" is checked on the wire.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startEmulator, type Emulator } from '../../emulator/index'
import type { Profile } from '../../shared/contract'
import { createCoreRig, type CoreRig } from '../testing/core-harness'
import { createMemoryKeychain } from './keychain'
import { EMBEDDED_SANDBOX_ORIGIN, editEndsSession, sessionOrigin } from './session-origin'
import { defaultProfilesFile } from './profiles'

/** A loopback proxy to `upstream` that records the headers of every request it forwards. */
async function recordingProxy(upstream: Emulator): Promise<{ baseUrl: string; seen: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: IncomingHttpHeaders[] = []
  const target = new URL(upstream.baseUrl)
  const server: Server = createServer((req, res) => {
    seen.push(req.headers)
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    forward.on('error', () => req.socket.destroy())
    req.pipe(forward)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    seen,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done())))
  }
}

let rig: CoreRig | undefined
let other: Emulator | undefined
let proxy: Awaited<ReturnType<typeof recordingProxy>> | undefined
afterEach(async () => {
  await rig?.close()
  await proxy?.close()
  await other?.close()
  rig = other = proxy = undefined
})

async function setUp(): Promise<{ rig: CoreRig; lab: Profile; otherUrl: string; seen: IncomingHttpHeaders[] }> {
  const keychain = createMemoryKeychain()
  rig = await createCoreRig({ keychain })
  other = await startEmulator({ port: 0 })
  proxy = await recordingProxy(other)
  const saved = await rig.call('profiles.save', { name: 'Lab', baseUrl: rig.emulator.baseUrl })
  if (!saved.ok) throw new Error(saved.error.message)
  const lab = saved.value.profiles.find((p) => p.name === 'Lab')!
  await rig.call('profiles.select', { id: lab.id })
  const login = await rig.call('session.login', { profileId: lab.id, username: 'demo', password: 'demo', rememberMe: true })
  if (!login.ok) throw new Error(login.error.message)
  expect(await rig.call('instances.refresh')).toMatchObject({ ok: true })
  return { rig, lab, otherUrl: proxy.baseUrl, seen: proxy.seen }
}

const tokenSent = (seen: IncomingHttpHeaders[]): boolean => seen.some((headers) => /AccessToken=/.test(headers.cookie ?? ''))

describe('the token stays with its origin', () => {
  it('#12 item 4: editing the signed-in profile to another address signs out; the new host never gets the token', async () => {
    const { rig, lab, otherUrl, seen } = await setUp()
    const saved = await rig.call('profiles.save', { id: lab.id, name: 'Lab', baseUrl: otherUrl })
    expect(saved).toMatchObject({ ok: true })
    // Polls that were due, and the user's next refresh: none may carry the token to the new host.
    await rig.clock.advanceAsync(10 * 60_000)
    const refreshed = await rig.call('instances.refresh')
    expect(tokenSent(seen)).toBe(false)
    expect(refreshed).toMatchObject({ ok: false, error: { kind: 'no-session' } })
    expect(await rig.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-out' } })
    const warnings = await rig.call('warnings.get')
    expect(warnings.ok && warnings.value.find((w) => w.id === 'profile-address-changed')?.message).toMatch(/signed out of “Lab”/)
    // Nothing is left to resume either.
    expect((rig.keychain as ReturnType<typeof createMemoryKeychain>).entries.size).toBe(0)
    expect(JSON.parse(await readFile(join(rig.dataDir, 'profiles.json'), 'utf8')).remembered).toBeNull()
    await rig.restart()
    expect(await rig.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-out' } })
    expect(tokenSent(seen)).toBe(false)
  })

  it('#12 item 4: a remembered token is not resumed against a different origin', async () => {
    const { rig, lab, otherUrl, seen } = await setUp()
    await rig.core.stop()
    // The address changes while the app is not running (another copy of the app, a hand edit).
    const path = join(rig.dataDir, 'profiles.json')
    const file = JSON.parse(await readFile(path, 'utf8'))
    expect(file.remembered).toMatchObject({ profileId: lab.id, origin: new URL(rig.emulator.baseUrl).origin })
    file.userProfiles = file.userProfiles.map((p: Profile) => (p.id === lab.id ? { ...p, baseUrl: otherUrl } : p))
    await writeFile(path, JSON.stringify(file))
    await rig.restart()
    await rig.clock.advanceAsync(10 * 60_000)
    const refreshed = await rig.call('instances.refresh')
    expect(tokenSent(seen)).toBe(false)
    expect(refreshed).toMatchObject({ ok: false, error: { kind: 'no-session' } })
    expect(await rig.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-out', profileId: lab.id } })
    expect((rig.keychain as ReturnType<typeof createMemoryKeychain>).entries.size).toBe(0)
    const warnings = await rig.call('warnings.get')
    expect(warnings.ok && warnings.value.map((w) => w.id)).toContain('resume-origin-changed')
  })

  it('a rename, or a new path on the same origin, keeps the session', async () => {
    const { rig, lab } = await setUp()
    expect(await rig.call('profiles.save', { id: lab.id, name: 'Lab renamed', baseUrl: `${rig.emulator.baseUrl}/` })).toMatchObject({
      ok: true
    })
    expect(await rig.call('session.get')).toMatchObject({ ok: true, value: { status: 'signed-in' } })
    expect(await rig.call('instances.refresh')).toMatchObject({ ok: true })
  })
})

describe('editEndsSession', () => {
  const file = (baseUrl: string) => ({ ...defaultProfilesFile(), userProfiles: [{ id: 'u', name: 'U', baseUrl }] })
  const live = { status: 'signed-in' as const, profileId: 'u' }
  it.each([
    ['another host', live, 'https://a.example/api', 'https://b.example/api', true],
    ['another port', live, 'https://a.example/api', 'https://a.example:8443/api', true],
    ['http instead of https', live, 'https://localhost/api', 'http://localhost/api', true],
    ['another path, same origin', live, 'https://a.example/api', 'https://a.example/v2/api', false],
    ['an expired session is moved too', { ...live, status: 'expired' as const }, 'https://a.example/api', 'https://b.example/api', true],
    ['signed out: nothing to end', { ...live, status: 'signed-out' as const }, 'https://a.example/api', 'https://b.example/api', false],
    ['another profile edited', { ...live, profileId: 'sandbox' }, 'https://a.example/api', 'https://b.example/api', false]
  ])('%s', (_label, session, from, to, ends) => {
    expect(
      editEndsSession({ session, before: file(from), after: file(to), sandboxUrl: 'http://127.0.0.1:1/api', embeddedSandbox: true })
    ).toBe(ends)
  })

  it('the embedded Sandbox keeps one origin whatever port it has this run', () => {
    const sandbox: Profile = { id: 'sandbox', name: 'Sandbox', baseUrl: 'http://127.0.0.1:41234/api', builtIn: 'sandbox' }
    expect(sessionOrigin(sandbox, true)).toBe(EMBEDDED_SANDBOX_ORIGIN)
    expect(sessionOrigin(sandbox, false)).toBe('http://127.0.0.1:41234')
    expect(sessionOrigin({ ...sandbox, builtIn: undefined, baseUrl: '' }, true)).toBeUndefined()
  })
})
