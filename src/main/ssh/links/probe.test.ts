/** After a wake, a link is probed at once: one that answers stays, one that does not is dropped as lost. */
import { EventEmitter } from 'node:events'
import type { Client } from 'ssh2'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../../shared/clock'
import { PROBE_TIMEOUT_MS, SshConnection } from './connection'

function fakeClient(answers: boolean) {
  const client = Object.assign(new EventEmitter(), {
    destroyed: 0,
    execs: [] as string[],
    exec(
      command: string,
      callback: (error: Error | undefined, channel: EventEmitter & { resume(): void; stderr: { resume(): void } }) => void
    ) {
      client.execs.push(command)
      if (answers) callback(undefined, Object.assign(new EventEmitter(), { resume() {}, stderr: { resume() {} } }))
    },
    destroy() {
      client.destroyed++
    },
    end() {}
  })
  return client
}

const target = { host: '127.0.0.1', port: 22, username: 'root' } as never

describe('probing a link after a wake', () => {
  it('a link that answers stays up', async () => {
    const clock = new ManualClock()
    const client = fakeClient(true)
    new SshConnection(client as unknown as Client, target, new Promise(() => {})).probe(clock)
    await clock.advanceAsync(PROBE_TIMEOUT_MS * 2)
    expect([client.execs, client.destroyed]).toEqual([['true'], 0])
  })

  it('a link that died half-open during the sleep is dropped at the probe’s timeout, not after the keepalives', async () => {
    const clock = new ManualClock()
    const client = fakeClient(false)
    new SshConnection(client as unknown as Client, target, new Promise(() => {})).probe(clock)
    await clock.advanceAsync(PROBE_TIMEOUT_MS - 1)
    expect(client.destroyed).toBe(0)
    await clock.advanceAsync(1)
    expect(client.destroyed).toBe(1)
  })

  it('a connection being ended on purpose is not probed', async () => {
    const clock = new ManualClock()
    const client = fakeClient(false)
    const connection = new SshConnection(client as unknown as Client, target, new Promise(() => {}))
    connection.end()
    connection.probe(clock)
    await clock.advanceAsync(PROBE_TIMEOUT_MS)
    expect([client.execs, client.destroyed]).toEqual([[], 0])
  })
})
