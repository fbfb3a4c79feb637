/**
 * `--ssh-backend`: an instance's SSH node port carries a real OpenSSH session (Debian's sshd,
 * run by the SSH area's test fixture) end to end, host key and exit code included.
 */
import { readFileSync } from 'node:fs'
import ssh2 from 'ssh2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OpenSshServer, opensshAvailable } from '../../main/ssh/testing/openssh-server'
import { createReach, type EmulatorReach } from './index'
import { fakeCloud, freePort } from './testing/fake-cloud'

const available = opensshAvailable()
let sshd: OpenSshServer
let reach: EmulatorReach
let nodePort: number

beforeAll(async () => {
  if (!available) return
  sshd = new OpenSshServer()
  await sshd.start()
  reach = await createReach({ sshBackend: { host: '127.0.0.1', port: sshd.port } })(fakeCloud().context)
  nodePort = await freePort()
  await reach.instanceRunning({
    instanceId: 'inst-o',
    owner: 'alice',
    instanceUsername: sshd.username,
    subUrl: '/nb/inst-o/',
    nodePorts: [{ port: 22, address: '127.0.0.1', nodePort }]
  })
})

afterAll(async () => {
  await reach?.close()
  await sshd?.dispose()
})

describe.skipIf(!available)('--ssh-backend with OpenSSH', () => {
  it('reaches sshd through the node port: its host key, its login, an exec exit code', async () => {
    const expectedHostKey = sshd.hostPublicKey().keyBase64
    const client = new ssh2.Client()
    await new Promise<void>((resolve, reject) => {
      client.once('ready', resolve).once('error', reject)
      client.connect({
        host: '127.0.0.1',
        port: nodePort,
        username: sshd.username,
        privateKey: readFileSync(sshd.userKeyPath),
        hostVerifier: (key: Buffer) => key.toString('base64') === expectedHostKey
      })
    })
    try {
      const result = await new Promise<{ code: number | null; out: string }>((resolve, reject) =>
        client.exec('echo via-openssh; exit 4', (error, stream) => {
          if (error) return reject(error)
          let out = ''
          let code: number | null = null
          stream.on('data', (chunk: Buffer) => (out += chunk.toString()))
          stream.on('exit', (exitCode: number | null) => (code = exitCode))
          stream.on('close', () => resolve({ code, out }))
        })
      )
      expect(result).toEqual({ code: 4, out: 'via-openssh\n' })
    } finally {
      client.end()
    }
  })
})
