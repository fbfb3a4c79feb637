/**
 * Who hears an event, and in which order (event-hub.ts, core.ts): the transports first, then the
 * SSH wing, the cost guard and the tray. Seen through the core against the emulator: the poll
 * that finds a Running instance Stopped reaches the window as `instances` before anything a part
 * says about it; the wing ends the terminal's connection (`ssh.status`) before the guard looks
 * again (`cost`), and the tray redraws only after both.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createCoreRig, recordingPlatform, type CoreRig } from './testing/core-harness'

let rig: CoreRig | undefined
afterEach(async () => {
  await rig?.close()
  rig = undefined
})

describe('the order in which main hears an event', () => {
  it('transports first, then the SSH wing, the cost guard and the tray', async () => {
    const timeline: string[] = []
    const platform = recordingPlatform()
    const setTray = platform.setTray
    platform.setTray = (model) => {
      timeline.push('tray')
      setTray(model)
    }
    rig = await createCoreRig({ core: { platform } })
    rig.core.subscribe((event) => void timeline.push(event))
    await rig.login()
    const [instanceId] = await rig.emulator.control.seedInstances('demo', 1, { status: 'Running' })
    await rig.call('instances.refresh')
    const opened = await rig.call('ssh.open', { instanceId, cols: 80, rows: 24 })
    expect(opened.ok).toBe(true)

    rig.emulator.control.setStatus(instanceId!, 'Stopped')
    timeline.length = 0
    await rig.call('instances.refresh')
    const after = timeline.slice(timeline.indexOf('instances'))
    const stopped = after.indexOf('ssh.status')
    const looked = after.indexOf('cost')
    const redrawn = after.indexOf('tray')
    expect(after[0]).toBe('instances')
    expect(stopped).toBeGreaterThan(0)
    expect(looked).toBeGreaterThan(stopped)
    expect(redrawn).toBeGreaterThan(looked)
    expect(rig.of('ssh.status').at(-1)).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/is Stopped, so its connection was closed/)
    })
  })
})
