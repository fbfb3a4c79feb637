/**
 * exec's exit status when the command's whole life arrives in one read: on a busy machine the
 * channel's confirmation, the output, the exit-status and the close can reach ssh2 together, and
 * ssh2 emits `exit` while it parses, before anyone awaiting the channel could listen. The status
 * is watched from the channel's opening (connection.ts), so exec still answers it.
 */
import { EventEmitter } from 'node:events'
import type { Client, ClientChannel } from 'ssh2'
import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../../shared/clock'
import { SshConnection } from './connection'
import { ExecUser } from './exec'

const target = { host: '127.0.0.1', port: 22, username: 'u' }

/** An ssh2 client whose exec channel says everything in the same turn as its opening. */
function oneReadClient(exit: [code: number | null, signal?: string]): Client {
  return {
    exec(_command: string, callback: (error: Error | undefined, channel: ClientChannel) => void) {
      const channel = Object.assign(new EventEmitter(), { stderr: new EventEmitter(), close: () => {} })
      callback(undefined, channel as unknown as ClientChannel)
      // Still inside the same parse: ssh2 emits these before any awaiting code runs.
      channel.emit('exit', ...exit)
      setImmediate(() => {
        channel.emit('data', Buffer.from('42'))
        channel.stderr.emit('data', Buffer.from('oops\n'))
        channel.emit('close')
      })
    }
  } as unknown as Client
}

describe('exec on a busy machine', () => {
  it.each([
    [[3], { exitCode: 3, stdout: '42', stderr: 'oops\n' }],
    [[null, 'SIGTERM'], { exitCode: null, signal: 'SIGTERM', stdout: '42', stderr: 'oops\n' }]
  ] as const)('answers the exit status %j told in the same read as the channel', async (exit, answer) => {
    const connection = new SshConnection(oneReadClient([...exit]), target, new Promise(() => {}))
    const user = new ExecUser(new ManualClock(), 60_000)
    await expect(user.run(connection, target, 'printf 42; echo oops >&2; exit 3', {})).resolves.toEqual(answer)
  })
})

describe('exec while the link backs off', () => {
  it('says why the link failed, not that it retries: the background caller leaves the link', async () => {
    const user = new ExecUser(new ManualClock(), 60_000)
    const running = user.run(undefined, target, 'true', {})
    user.status({
      state: 'reconnecting',
      message: 'Could not reach 127.0.0.1:22 (ECONNREFUSED). Retrying in 2 s.',
      retryAt: 2_000,
      cause: 'Could not reach 127.0.0.1:22 (ECONNREFUSED)'
    })
    await expect(running).rejects.toMatchObject({ reason: 'reconnecting', message: 'Could not reach 127.0.0.1:22 (ECONNREFUSED)' })
  })
})
