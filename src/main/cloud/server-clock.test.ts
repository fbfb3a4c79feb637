import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import { startEmulator, type Emulator } from '../../emulator/index'
import { createCloudClient } from './client'
import { offsetFromDate } from './server-clock'
import { closeAfterEach } from '../../shared/testing/close-after-each'

describe('offsetFromDate', () => {
  it('bounds the offset by the stamp and the time the exchange took', () => {
    const date = 'Thu, 01 Jan 2026 00:00:10 GMT'
    const stamp = Date.parse(date)
    // Sent 9.5 s and received 9.7 s (local) after the stamp's second began on the server.
    expect(offsetFromDate(date, stamp - 500, stamp - 300)).toEqual({ min: 300, max: 1500 })
    expect(offsetFromDate(undefined, 1, 2)).toBeUndefined()
    expect(offsetFromDate('not a date', 1, 2)).toBeUndefined()
    expect(offsetFromDate(date, 5, 4)).toBeUndefined()
  })
})

const emulators = closeAfterEach<Emulator>()

describe('the client measures the service clock', () => {
  it('from the Date header of its latest answer, against the app clock it is given', async () => {
    const serverClock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0))
    const emulator = emulators.track(await startEmulator({ clock: serverClock }))
    const appTime = Date.UTC(2026, 0, 1, 11, 0, 0) // the app's clock is an hour behind
    const client = createCloudClient({ baseUrl: emulator.baseUrl, token: () => undefined, now: () => appTime })
    try {
      expect(client.serverClock?.()).toBeUndefined()
      await client.login({ username: 'demo', password: 'demo' })
      const offset = client.serverClock?.()
      expect(offset).toEqual({ min: 3_600_000, max: 3_601_000 })
    } finally {
      await client.close()
    }
  })
})
