import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../shared/clock'
import { startEmulator } from './index'
import { REGION_ID, login, pager, post, validCreate } from './testing/http-client'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-state-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('--state', () => {
  it('keeps instances, volumes and sessions across a restart, and resumes a boot', async () => {
    const statePath = join(dir, 'state.json')
    const clock = new ManualClock()
    const first = await startEmulator({ statePath, clock, bootMs: 1000 })
    const token = await login(first.baseUrl)
    const running = (await post(first.baseUrl, '/instance/create', validCreate({ name: 'kept' }), token)).body.instanceId
    first.control.advance(1000)
    const booting = (await post(first.baseUrl, '/instance/create', validCreate({ name: 'booting' }), token)).body.instanceId
    await post(first.baseUrl, '/storage/volume/create', { name: 'data', sizeGB: 10, region: REGION_ID, volumeType: 'filesystem' }, token)
    const before = (await post(first.baseUrl, '/instance/list', pager(1, 10), token)).body
    await first.close()
    // No temporary file left behind; the control secret of the run sits beside the state (#12 item 1).
    expect(readdirSync(dir)).toEqual(['control-secret', 'state.json'])
    expect(readFileSync(statePath, 'utf8')).not.toContain(token)

    const second = await startEmulator({ statePath, clock, bootMs: 1000 })
    try {
      // The same token still works: the signing key is part of the state.
      const after = (await post(second.baseUrl, '/instance/list', pager(1, 10), token)).body
      expect(after).toEqual(before)
      expect(after.instances.map((i: any) => i.instanceMetadata.instanceId)).toEqual([booting, running])
      const volumes = (await post(second.baseUrl, '/storage/volume/list', pager(1, 10), token)).body.volumeList
      expect(volumes.map((v: any) => v.volumeName)).toEqual(['data'])
      second.control.advance(1000)
      expect(second.control.instances('demo').map((i) => i.instanceRuntimeInfo.status)).toEqual(['Running', 'Running'])
      // New creates after a restart still get fresh, distinct node ports.
      const third = (await post(second.baseUrl, '/instance/create', validCreate({ name: 'new' }), token)).body.instanceId
      const ports = second.control.instances().flatMap((i) => i.instanceSpecInfo.nodePorts.map((p) => p.nodePort))
      expect(new Set(ports).size).toBe(ports.length)
      expect(third).toMatch(/^notebook-/)
    } finally {
      await second.close()
    }
  })

  it('starts empty when the file does not exist, and refuses a file that is not state', async () => {
    const statePath = join(dir, 'nested', 'state.json')
    const emulator = await startEmulator({ statePath })
    const token = await login(emulator.baseUrl)
    expect((await post(emulator.baseUrl, '/instance/list', pager(1, 10), token)).body.pager.totalEntries).toBe(0)
    await emulator.close()
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{"hello":1}')
    await expect(startEmulator({ statePath: bad })).rejects.toThrow(/not an emulator state file/)
    writeFileSync(bad, '{')
    await expect(startEmulator({ statePath: bad })).rejects.toThrow(/could not be read/)
  })
})
