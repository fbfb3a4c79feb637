/**
 * Issue #12 item 1 as the attacker saw it: another local user (or any process) who knows only
 * the Sandbox's ports tries to get a shell as the app's user through the real OpenSSH client:
 * register their own key over the control routes, sign in with the old public password, log in
 * by SSH. The command they would run creates a marker file; it must not exist afterwards. The
 * same command with the Sandbox's own key does run, so the marker check can see a command.
 */
import { execFile, execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startEmulator, type Emulator } from '../../emulator/index'
import { createReach } from '../../emulator/reach/index'
import { post } from '../../emulator/testing/http-client'
import { startSandbox, type RunningSandbox } from './sandbox'

const SSH = '/usr/bin/ssh'
const haveOpenSsh = existsSync(SSH) && existsSync('/usr/bin/ssh-keygen')

/** Runs `ssh … command` with only this key and no config, agent or prompts; resolves its exit code and what it said. */
function sshRun(port: number, user: string, key: string, command: string): Promise<{ code: number; stderr: string }> {
  const args = [
    '-F',
    '/dev/null',
    '-p',
    String(port),
    '-i',
    key,
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    'IdentityAgent=none',
    '-o',
    'BatchMode=yes',
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'ConnectTimeout=10',
    '-o',
    'LogLevel=ERROR',
    `${user}@127.0.0.1`,
    command
  ]
  return new Promise((resolve) => {
    execFile(SSH, args, { timeout: 20_000 }, (error, _stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stderr: String(stderr) })
    )
  })
}

describe.skipIf(!haveOpenSsh)('the Sandbox against another local user, with the real ssh client', () => {
  let dataDir: string
  let attackerDir: string
  let sandbox: RunningSandbox
  let emulator: Emulator
  let sshPort: number
  let instanceUser: string

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cloud-tray-attack-app-'))
    attackerDir = await mkdtemp(join(tmpdir(), 'cloud-tray-attack-other-'))
    sandbox = await startSandbox({
      dataDir,
      reach: createReach(),
      start: async (options) => {
        emulator = await startEmulator({ ...options, bootMs: 0 })
        return emulator
      }
    })
    // The app's user has a Running instance, as after "New instance" in the app.
    const [instanceId] = await emulator.control.seedInstances('demo', 1, { name: 'victim' })
    const instance = emulator.control.instances('demo').find((i) => i.instanceMetadata.instanceId === instanceId)!
    sshPort = instance.instanceSpecInfo.nodePorts.find((entry) => entry.port === 22)!.nodePort
    instanceUser = instance.instanceMetadata.instanceUsername
    // The instance's SSH server comes up a moment after it is Running: until the app's own key
    // gets in, a refusal would say nothing about the attacker's.
    for (let attempt = 0; ; attempt++) {
      const { code, stderr } = await sshRun(sshPort, instanceUser, sandbox.info.sshPrivateKeyPath, 'true')
      if (code === 0) break
      if (attempt >= 50) throw new Error(`the app's own key never got in: exit ${code}, ${stderr.trim()}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  })

  afterAll(async () => {
    await sandbox?.close()
    await rm(dataDir, { recursive: true, force: true })
    await rm(attackerDir, { recursive: true, force: true })
  })

  it('#12 item 1: knowing only the ports, no key gets registered, no login succeeds and no command runs', async () => {
    const attackerKey = join(attackerDir, 'id_ed25519')
    execFileSync('/usr/bin/ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'attacker@elsewhere', '-f', attackerKey])
    const publicKey = (await readFile(`${attackerKey}.pub`, 'utf8')).trim()
    const marker = join(attackerDir, 'pwned')
    const apiOrigin = sandbox.baseUrl.replace(/\/api$/, '')

    // 1. Register the attacker's key for the app's account: at the control address without a
    //    secret or with a guessed one, and at the API's port where control used to be served.
    const attempts = [
      await post(emulator.controlUrl, '/ssh-keys', { username: 'demo', publicKey }),
      await fetch(`${emulator.controlUrl}/ssh-keys`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: 'Bearer 0000000000000000000000000000000000000000000000000000000000000000'
        },
        body: JSON.stringify({ username: 'demo', publicKey })
      }).then((response) => ({ status: response.status })),
      await post(`${apiOrigin}/__emulator`, '/ssh-keys', { username: 'demo', publicKey })
    ]
    // 2. Sign in to the API with the password every Sandbox used to have.
    const login = await post(sandbox.baseUrl, '/user/login', { username: 'demo', password: 'demo' })
    // 3. Log in by SSH with the attacker's key and run a command.
    const attackerSsh = await sshRun(sshPort, instanceUser, attackerKey, `touch ${marker}`)

    expect(attempts.map((attempt) => attempt.status)).toEqual([401, 401, 404])
    expect(login.status).toBe(401)
    // Refused for the key, not for want of a server.
    expect(attackerSsh.code).toBe(255)
    expect(attackerSsh.stderr).toContain('Permission denied')
    expect(existsSync(marker)).toBe(false)

    // The same command with the key the app registered does run: the check above can see one.
    const ownMarker = join(attackerDir, 'app-user-ran-this')
    expect((await sshRun(sshPort, instanceUser, sandbox.info.sshPrivateKeyPath, `touch ${ownMarker}`)).code).toBe(0)
    expect(existsSync(ownMarker)).toBe(true)
  })
})
