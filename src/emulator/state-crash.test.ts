/**
 * #12 item 10 as it was found: `kill -9` the emulator while clients are creating, start it again
 * on the same state file, and everything a client was told exists must still exist. The
 * emulator runs in a child process so SIGKILL is real (no shutdown hook, no final write).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startEmulator } from './index'
import { REGION_ID, login, post, validCreate } from './testing/http-client'

const ROOT = resolve(import.meta.dirname, '../..')

let dir: string
const children: ChildProcess[] = []
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-crash-'))
})
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

/** Starts the emulator on `statePath` in a child process; resolves with its base URL. */
async function emulatorProcess(statePath: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const script = `
    const { startEmulator } = await import(${JSON.stringify(join(ROOT, 'src/emulator/index.ts'))})
    const emulator = await startEmulator({ statePath: ${JSON.stringify(statePath)}, bootMs: 600000 })
    console.log(emulator.baseUrl)`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit']
  })
  children.push(child)
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done)
    child.once('exit', (code) => fail(new Error(`emulator child exited (${code}) before listening`)))
  })
  return { child, baseUrl: line.trim() }
}

describe('kill -9', () => {
  it('#12 item 10: every instance and volume a client was told about survives SIGKILL', async () => {
    const statePath = join(dir, 'state.json')
    const acknowledged = { instances: [] as string[], volumes: [] as string[] }
    for (const round of [0, 1]) {
      const { child, baseUrl } = await emulatorProcess(statePath)
      const token = await login(baseUrl)
      let killed = false
      const killAfter = 6 + round * 5
      let answers = 0
      const note = (): void => {
        // The moment a client holds its answer, the process dies.
        if (++answers === killAfter && !killed) {
          killed = true
          child.kill('SIGKILL')
        }
      }
      const creates = Array.from({ length: 25 }, (_, n) =>
        post(baseUrl, '/instance/create', validCreate({ name: `r${round}-i${n}` }), token).then(
          (answer) => {
            if (answer.status === 200 && !killed) acknowledged.instances.push(answer.body.instanceId)
            note()
          },
          () => undefined
        )
      )
      const volumes = Array.from({ length: 5 }, (_, n) =>
        post(
          baseUrl,
          '/storage/volume/create',
          { name: `r${round}-v${n}`, sizeGB: 1, region: REGION_ID, volumeType: 'filesystem' },
          token
        ).then(
          (answer) => {
            if (answer.status === 200 && !killed) acknowledged.volumes.push(answer.body.volume.id)
            note()
          },
          () => undefined
        )
      )
      await Promise.all([...creates, ...volumes])
      if (!killed) child.kill('SIGKILL')
      await new Promise((done) => (child.exitCode !== null || child.signalCode !== null ? done(undefined) : child.once('exit', done)))
    }

    const restarted = await startEmulator({ statePath, bootMs: 600_000 })
    try {
      const instances = new Set(restarted.control.instances('demo').map((i) => i.instanceMetadata.instanceId))
      const volumes = new Set(restarted.control.volumes('demo').map((v) => v.id))
      expect(acknowledged.instances.length).toBeGreaterThan(10)
      expect(acknowledged.instances.filter((id) => !instances.has(id))).toEqual([])
      expect(acknowledged.volumes.filter((id) => !volumes.has(id))).toEqual([])
    } finally {
      await restarted.close()
    }
  }, 60_000)
})
