/**
 * Each instance's shell has an nvidia-smi (#16): over a real SSH login to an emulated instance,
 * the query the app sends and the plain table answer the values POST /__emulator/gpu set,
 * idle until then, and idle again after a stop.
 */
import ssh2 from 'ssh2'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import { posixShellMissing, skipBecause } from '../../shared/node/testing/platform-support'
import { sharedTestSigningKey, startEmulator, type Emulator } from '../index'
import { controlClient, login, post } from '../testing/http-client'
import { createReach } from './index'
import { userKey } from './testing/fake-cloud'

const QUERY = 'nvidia-smi --query-gpu=utilization.gpu,memory.used,memory.total --format=csv,noheader,nounits'
const noShell = skipBecause(posixShellMissing(), 'the emulated nvidia-smi in an instance shell')
const user = userKey()

let emulator: Emulator
beforeEach(async () => {
  emulator = await startEmulator({
    signingKeyPem: await sharedTestSigningKey(),
    clock: new ManualClock(),
    bootMs: 1000,
    reach: createReach(),
    sshKeys: { demo: [user.publicKey] }
  })
})
afterEach(() => emulator.close())

/** One login, one command (the seed is answered once the instance's SSH server listens). */
function exec(port: number, command: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client()
    client
      .once('ready', () =>
        client.exec(command, (error, stream) => {
          if (error) return reject(error)
          let stdout = ''
          let stderr = ''
          let code: number | null = null
          stream.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
          stream.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
          stream.on('exit', (exitCode: number | null) => (code = exitCode))
          stream.on('close', () => {
            client.end()
            resolve({ code, stdout, stderr })
          })
        })
      )
      .once('error', reject)
      .connect({ host: '127.0.0.1', port, username: 'root', privateKey: user.privateKey })
  })
}

describe.skipIf(noShell)('nvidia-smi in an emulated instance', () => {
  it('answers the query and the table from the control route: idle, set, idle again after a stop', async () => {
    const [instanceId] = await emulator.control.seedInstances('demo', 1, { instanceTypeId: 'gpu-h100-sxm-8x' })
    const port = emulator.control.instances('demo')[0]!.instanceSpecInfo.nodePorts.find((p) => p.port === 22)!.nodePort
    const idle = await exec(port, QUERY)
    expect(idle).toEqual({ code: 0, stdout: '0, 0, 81920\n'.repeat(8), stderr: '' })

    const control = controlClient(emulator)
    const set = await control('/gpu', { instanceId, utilization: 87, memoryUsedMiB: 40960, memoryTotalMiB: 81920 })
    expect(set.status).toBe(200)
    expect(set.body.gpus).toHaveLength(8)
    expect((await exec(port, QUERY)).stdout).toBe('87, 40960, 81920\n'.repeat(8))

    await control('/gpu', { instanceId, gpus: [{ utilization: 3 }, { utilization: 99, memoryUsedMiB: 1024 }] })
    expect((await exec(port, QUERY)).stdout).toBe('3, 0, 81920\n99, 1024, 81920\n')
    const table = await exec(port, 'nvidia-smi')
    expect(table.stdout).toMatch(/\|\s+99%\s+Default \|/)
    expect(table.stdout).toMatch(/python\s+1024MiB/)

    // Each exec above was its own login: what the server counts (bench/gpu-probe.ts reads it).
    expect(emulator.control.sshStats()[instanceId!]).toEqual({ connections: 4, execs: 4 })
    expect((await control('/ssh-stats')).body.instances[instanceId!]).toEqual({ connections: 4, execs: 4 })

    const bad = await control('/gpu', { instanceId, utilization: 140 })
    expect(bad).toEqual({ status: 400, body: { message: 'field "utilization" must be between 0 and 100, not 140' } })
    expect((await control('/gpu', { instanceId: 'notebook-nope', utilization: 1 })).status).toBe(400)

    // A stop ends what ran: the GPUs are idle when it is back.
    const token = await login(emulator.baseUrl)
    await post(emulator.baseUrl, '/instance/stop', { instanceId }, token)
    emulator.control.advance(1000)
    expect(emulator.control.gpus(instanceId!).map((gpu) => gpu.utilization)).toEqual(Array(8).fill(0))
  })
})
