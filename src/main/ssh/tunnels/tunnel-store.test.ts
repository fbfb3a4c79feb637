import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { recordedProblems } from '../../testing/save-problems'
import { TunnelStore } from './tunnel-store'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

describe('remembered tunnels', () => {
  it('a write the disk refuses keeps the tunnel in memory and is told, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudtray-tunnels-'))
    folders.push(dir)
    const { problems, failures } = recordedProblems()
    const store = new TunnelStore(dir, problems)
    // A folder where tunnels.json goes: the write fails even for root, as a full disk would.
    mkdirSync(join(dir, 'tunnels.json'))
    const tunnel = { tunnelId: 't-1', profileId: 'sandbox', instanceId: 'i-1', remotePort: 8888, localPort: 18888 }
    await store.remember(tunnel)
    expect(failures).toEqual([`${join(dir, 'tunnels.json')}: your remembered tunnels`])
    expect(await store.all()).toEqual([tunnel])
  })
})
