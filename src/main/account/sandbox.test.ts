/** The Sandbox profile for real: the embedded emulator started by the core, with its SSH key. */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCoreRig, createRequest, type CoreRig } from '../test-support/core-harness'
import { createReach } from '../../emulator/reach/index'
import { startSandbox } from './sandbox'
import { startEmulator } from '../../emulator/index'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { posixFileModesMissing, skipBecause } from '../test-support/platform-support'

let rig: CoreRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe('Sandbox', () => {
  it('starts the emulator on loopback, signs in as demo, keeps state and key across restarts', async () => {
    // baseUrlOverride undefined: the core starts its own emulator, as `npm start` does.
    rig = await createCoreRig({ core: { baseUrlOverride: undefined } })
    const profiles = await rig.call('profiles.get')
    if (!profiles.ok) throw new Error(profiles.error.message)
    const sandbox = profiles.value.profiles.find((p) => p.id === 'sandbox')!
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/)
    expect(sandbox.baseUrl).not.toBe(rig.emulator.baseUrl)

    const keyPath = join(rig.dataDir, 'sandbox', 'id_ed25519')
    if (!skipBecause(posixFileModesMissing(), 'the Sandbox key’s file mode')) expect((await stat(keyPath)).mode & 0o777).toBe(0o600)
    const publicKey = await readFile(`${keyPath}.pub`, 'utf8')
    expect(publicKey).toMatch(/^ssh-ed25519 /)

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
