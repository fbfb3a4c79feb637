/**
 * #12 item 10: the emulator acknowledged writes before they were on disk (written after the
 * answer, never fsynced), so a `kill -9` lost instances and volumes a client had been told
 * exist. Each file-system step of a state write is recorded here (node:fs/promises is wrapped,
 * and each fsync made slow), so the order "fsync, rename, fsync the directory, then answer" is
 * checked exactly rather than hoped for.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startEmulator, type Emulator } from './index'
import { REGION_ID, login, pager, post, validCreate } from './testing/http-client'

const steps: string[] = []
const SLOW_SYNC_MS = 80

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>()
  const open: typeof real.open = async (...args) => {
    const handle = await real.open(...args)
    const what = String(args[0]).endsWith('.tmp') ? 'file' : String(args[1]) === 'r' ? 'directory' : 'other'
    const sync = handle.sync.bind(handle)
    handle.sync = async () => {
      await new Promise((resolve) => setTimeout(resolve, SLOW_SYNC_MS))
      await sync()
      steps.push(`fsync ${what}`)
    }
    return handle
  }
  const rename: typeof real.rename = async (from, to) => {
    await real.rename(from, to)
    steps.push('rename')
  }
  return { ...real, default: { ...real, open, rename }, open, rename }
})

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-durable-'))
  steps.length = 0
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** An emulator on a state file in `dir`, signed in, its start-up write landed: what follows is the test's alone. */
async function durableEmulator(): Promise<{ emulator: Emulator; token: string; statePath: string }> {
  const statePath = join(dir, 'state.json')
  const emulator = await startEmulator({ statePath, bootMs: 600_000 })
  const token = await login(emulator.baseUrl)
  await post(emulator.baseUrl, '/instance/list', pager(1, 1), token)
  steps.length = 0
  return { emulator, token, statePath }
}

describe('state written before the answer', () => {
  it('#12 item 10: a create and a volume create are answered only after fsync, rename and a directory fsync', async () => {
    const { emulator, token, statePath } = await durableEmulator()
    try {
      const created = await post(emulator.baseUrl, '/instance/create', validCreate({ name: 'durable' }), token)
      steps.push('answer')
      expect(created.status).toBe(200)
      expect(steps).toEqual(['fsync file', 'rename', 'fsync directory', 'answer'])
      // What the client was told is exactly what a restart would find.
      expect(readFileSync(statePath, 'utf8')).toContain(created.body.instanceId)

      steps.length = 0
      const volume = await post(
        emulator.baseUrl,
        '/storage/volume/create',
        { name: 'kept', sizeGB: 10, region: REGION_ID, volumeType: 'filesystem' },
        token
      )
      steps.push('answer')
      expect(volume.status).toBe(200)
      expect(steps).toEqual(['fsync file', 'rename', 'fsync directory', 'answer'])
      expect(readFileSync(statePath, 'utf8')).toContain(volume.body.volume.id)
    } finally {
      await emulator.close()
    }
  })

  it('#12 item 10: concurrent creates share writes, and a request that changed nothing waits for none', async () => {
    const { emulator, token, statePath } = await durableEmulator()
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, n) => post(emulator.baseUrl, '/instance/create', validCreate({ name: `burst-${n}` }), token))
      )
      expect(answers.every((a) => a.status === 200)).toBe(true)
      const renames = steps.filter((s) => s === 'rename').length
      // One write for the first arrivals, one for everyone who came while it was on its way:
      // far fewer than one per request.
      expect(renames).toBeGreaterThan(0)
      expect(renames).toBeLessThanOrEqual(5)
      const saved = readFileSync(statePath, 'utf8')
      for (const answer of answers) expect(saved).toContain(answer.body.instanceId)

      // Nothing is on its way now, so a list writes nothing, and an answer waits only for a write
      // (persisted()): no step means it waited for none. No stopwatch: a busy machine fails one.
      steps.length = 0
      await post(emulator.baseUrl, '/instance/list', pager(1, 5), token)
      expect(steps).toEqual([])
    } finally {
      await emulator.close()
    }
  })
})
