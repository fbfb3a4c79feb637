/** The Sandbox profile for real: the embedded emulator started by the core, with its SSH key. */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createCoreRig, createRequest, type CoreRig } from '../testing/core-harness'
import { createReach } from '../../emulator/reach/index'
import { startSandbox } from './sandbox'
import { startEmulator } from '../../emulator/index'
import { mkdtemp, rm } from 'node:fs/promises'
import { post } from '../../emulator/testing/http-client'
import { tmpdir } from 'node:os'
import { posixFileModesMissing, skipBecause } from '../../shared/node/testing/platform-support'
import { closeAfterEach } from '../../shared/testing/close-after-each'

const rigs = closeAfterEach<CoreRig>()

describe('Sandbox', () => {
  it('starts the emulator on loopback, signs in as demo, keeps state and key across restarts', async () => {
    // baseUrlOverride undefined: the core starts its own emulator, as `npm start` does.
    const rig = rigs.track(await createCoreRig({ core: { baseUrlOverride: undefined } }))
    const profiles = await rig.call('profiles.get')
    if (!profiles.ok) throw new Error(profiles.error.message)
    const sandbox = profiles.value.profiles.find((p) => p.id === 'sandbox')!
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/)
    expect(sandbox.baseUrl).not.toBe(rig.emulator.baseUrl)

    const keyPath = join(rig.dataDir, 'sandbox', 'id_ed25519')
    if (!skipBecause(posixFileModesMissing(), 'the Sandbox key’s file mode')) expect((await stat(keyPath)).mode & 0o777).toBe(0o600)
    const publicKey = await readFile(`${keyPath}.pub`, 'utf8')
    expect(publicKey).toMatch(/^ssh-ed25519 /)

    // The sign-in form is given the Sandbox's own password, and Settings how to reach it (#12 item 1).
    const password = (await readFile(join(rig.dataDir, 'sandbox', 'password'), 'utf8')).trim()
    expect(profiles.value.demoPassword).toBe(password)
    expect(profiles.value.sandbox).toEqual({
      apiUrl: sandbox.baseUrl,
      username: 'demo',
      password,
      controlUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/__emulator$/),
      controlSecretFile: join(rig.dataDir, 'sandbox', 'control-secret')
    })

    await rig.login(true)
    const created = await rig.call('instances.create', { request: createRequest(rig.emulator, 'kept') })
    expect(created.ok).toBe(true)

    await rig.restart()
    expect(await readFile(`${keyPath}.pub`, 'utf8')).toBe(publicKey)
    const session = await rig.call('session.get')
    expect(session).toMatchObject({ ok: true, value: { status: 'signed-in' } })
    const snapshot = await rig.call('instances.refresh')
    expect(snapshot.ok && snapshot.value.instances.map((i) => i.instanceSpecInfo.name)).toEqual(['kept'])
  })

  it('#12 item 1: a random password per install, kept 0600; a control secret per run, in a 0600 file', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-sandbox-'))
    const otherDir = await mkdtemp(join(tmpdir(), 'cloud-tray-sandbox-'))
    const dir = join(dataDir, 'sandbox')
    let first = await startSandbox({ dataDir, start: startEmulator })
    try {
      const passwordPath = join(dir, 'password')
      const password = (await readFile(passwordPath, 'utf8')).trim()
      expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/)
      expect((await stat(passwordPath)).mode & 0o777).toBe(0o600)
      expect(first.access.password).toBe(password)
      // The public demo password no longer opens the Sandbox; its own does.
      expect((await post(first.baseUrl, '/user/login', { username: 'demo', password: 'demo' })).status).toBe(401)
      expect((await post(first.baseUrl, '/user/login', { username: 'demo', password })).status).toBe(200)

      const secretPath = join(dir, 'control-secret')
      expect(first.access.controlSecretFile).toBe(secretPath)
      expect((await stat(secretPath)).mode & 0o777).toBe(0o600)
      const firstSecret = (await readFile(secretPath, 'utf8')).trim()
      const now = (url: string, secret: string) => fetch(`${url}/now`, { headers: { authorization: `Bearer ${secret}` } })
      expect((await now(first.access.controlUrl, firstSecret)).status).toBe(200)
      expect((await fetch(`${first.access.controlUrl}/now`)).status).toBe(401)

      // A restart keeps the password and makes a new secret; the old one opens nothing.
      await first.close()
      first = await startSandbox({ dataDir, start: startEmulator })
      expect(first.access.password).toBe(password)
      const secondSecret = (await readFile(secretPath, 'utf8')).trim()
      expect(secondSecret).not.toBe(firstSecret)
      expect((await now(first.access.controlUrl, firstSecret)).status).toBe(401)
      expect((await now(first.access.controlUrl, secondSecret)).status).toBe(200)

      // Another install gets another password.
      const other = await startSandbox({ dataDir: otherDir, start: startEmulator })
      expect(other.access.password).not.toBe(password)
      await other.close()
    } finally {
      await first.close()
      await rm(dataDir, { recursive: true, force: true })
      await rm(otherDir, { recursive: true, force: true })
    }
  })

  it('with reach: SandboxInfo carries the notebook certificate fingerprint to pin', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-sandbox-'))
    const sandbox = await startSandbox({ dataDir, start: startEmulator, reach: createReach() })
    try {
      expect(sandbox.info.notebookCertSha256).toMatch(/^[0-9a-f]{64}$/)
      expect(sandbox.info.sshPrivateKeyPath).toBe(join(dataDir, 'sandbox', 'id_ed25519'))
    } finally {
      await sandbox.close()
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
