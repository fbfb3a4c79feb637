/**
 * A shell that cannot start (node-pty throws before any process exists, as on macOS when its
 * spawn-helper lost its execute bit): the session answers with the reason on the terminal and
 * exit status 127, and the connection stays up for another channel.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ssh2, { type ClientChannel } from 'ssh2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateEd25519PrivateKey } from './host-key'
import { SHELL_START_FAILED, serveSession } from './ssh-session'
import { freePort } from './testing/fake-cloud'

let server: ssh2.Server
let port: number
let home: string

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'ssh-session-test-'))
  server = new ssh2.Server({ hostKeys: [generateEd25519PrivateKey('ssh-session-test')] }, (client) => {
    client.on('authentication', (context) => context.accept())
    client.on('ready', () => {
      client.on('session', (accept) => {
        serveSession(accept(), {
          home,
          username: 'root',
          log: () => {},
          spawnPty: () => {
            throw new Error('posix_spawnp failed.')
          }
        })
      })
    })
    client.on('error', () => {})
  })
  port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
})

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await rm(home, { recursive: true, force: true })
})

describe('a shell that cannot start', () => {
  it('answers with the reason and exit status 127; the connection stays up', async () => {
    const client = new ssh2.Client()
    await new Promise<void>((resolve, reject) => {
      client
        .once('ready', resolve)
        .once('error', reject)
        .connect({ host: '127.0.0.1', port, username: 'root', password: 'x', hostVerifier: () => true })
    })
    try {
      const shell = (): Promise<{ output: string; code: number | undefined }> =>
        new Promise((resolve, reject) =>
          client.shell({ term: 'xterm-256color', rows: 24, cols: 80 }, (error, stream: ClientChannel) => {
            if (error) return reject(error)
            let output = ''
            let code: number | undefined
            stream.on('data', (chunk: Buffer) => (output += chunk.toString()))
            stream.on('exit', (exitCode: number) => (code = exitCode))
            stream.on('close', () => resolve({ output, code }))
          })
        )
      const first = await shell()
      expect(first.code).toBe(SHELL_START_FAILED)
      expect(first.output).toMatch(/^Could not start the shell .+: posix_spawnp failed\./)
      // The same connection serves another channel: nothing was torn down.
      expect((await shell()).code).toBe(SHELL_START_FAILED)
    } finally {
      client.end()
    }
  })
})
