import { describe, expect, it } from 'vitest'
import { ManualClock } from '../shared/clock'
import { startEmulator, type Emulator } from './index'
import { login, pager, post } from './testing/http-client'
import { closeAfterEach } from '../shared/testing/close-after-each'

const emulators = closeAfterEach<Emulator>()

describe('playing a hostile service', () => {
  it('rewrites the answers of one route until told to stop or reset', async () => {
    const emulator = emulators.track(await startEmulator())
    const token = await login(emulator.baseUrl)
    await emulator.control.seedInstances('demo', 2)
    emulator.control.faults.rewriteAnswers('/instance/list', (answer) => ({
      ...answer,
      instances: [...answer.instances, ...answer.instances],
      pager: { ...answer.pager, totalEntries: 1e9 }
    }))
    const lying = (await post(emulator.baseUrl, '/instance/list', pager(1, 10), token)).body
    expect(lying.instances).toHaveLength(4)
    expect(lying.pager.totalEntries).toBe(1e9)
    // Other routes and the emulator's own state are untouched.
    expect((await post(emulator.baseUrl, '/storage/volume/list', pager(1, 10), token)).status).toBe(200)
    expect(emulator.control.instances('demo')).toHaveLength(2)
    await emulator.control.faults.reset()
    expect((await post(emulator.baseUrl, '/instance/list', pager(1, 10), token)).body.pager.totalEntries).toBe(2)
    expect(() => emulator!.control.faults.rewriteAnswers('/instance/list', 'x' as never)).toThrow(TypeError)
  })

  it("sends its own clock's time in the Date header, as createAtUnixMs uses it", async () => {
    const clock = new ManualClock(Date.UTC(2030, 4, 6, 7, 8, 9))
    const emulator = emulators.track(await startEmulator({ clock }))
    emulator.control.advance(60_000)
    const answer = await fetch(`${emulator.baseUrl}/user/login`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' }
    })
    expect(answer.headers.get('date')).toBe('Mon, 06 May 2030 07:09:09 GMT')
  })
})
