/**
 * What answers inside an emulated instance: Jupyter's 8888 is the instance's own page whether
 * or not this machine's 8888 is taken (through direct-tcpip and through the node port), other
 * ports are this machine's loopback; and the SFTP faults a test asks for give the server's own
 * errors (permission denied from `sftp-server -R`, a failed write on a full tmpfs).
 */
import { createServer, type Server } from 'node:net'
import { rm } from 'node:fs/promises'
import ssh2, { type ClientChannel, type SFTPWrapper } from 'ssh2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { skipBecause } from '../../shared/node/testing/platform-support'
import type { EmulatorReach } from './index'
import { JUPYTER_PORT } from './instance-apps'
import { sftpServerPath, SMALL_DISK_BYTES } from './sftp-server'
import { connectToInstance, freePort, reachInTempState, runInstance, userKey, waitForText, type FakeCloud } from './testing/fake-cloud'

const alice = userKey()
let cloud: FakeCloud
let reach: EmulatorReach
let stateDir: string
let sshPort: number
let jupyterNodePort: number
/** Something of this machine's own on 8888, when the port was free to take. */
let hostJupyter: Server | undefined

beforeAll(async () => {
  hostJupyter = createServer((socket) => socket.end('HTTP/1.0 200 OK\r\n\r\nthe host machine, not the instance'))
  await new Promise<void>((resolve) => {
    hostJupyter!.once('error', () => {
      hostJupyter = undefined
      resolve()
    })
    hostJupyter!.listen(JUPYTER_PORT, '127.0.0.1', resolve)
  })
  ;({ stateDir, cloud, reach } = await reachInTempState('reach-apps-test-', { alice: [alice.publicKey] }))
  sshPort = await freePort()
  jupyterNodePort = await freePort()
  await runInstance(cloud, reach, 'inst-apps', 'alice', { 22: sshPort, [JUPYTER_PORT]: jupyterNodePort })
})

afterAll(async () => {
  await reach?.close()
  await new Promise<void>((resolve) => (hostJupyter ? hostJupyter.close(() => resolve()) : resolve()))
  await rm(stateDir, { recursive: true, force: true })
})

function connect(): Promise<ssh2.Client> {
  return connectToInstance(reach, sshPort, { privateKey: alice.privateKey })
}

function forward(client: ssh2.Client, port: number): Promise<ClientChannel> {
  return new Promise((resolve, reject) =>
    client.forwardOut('127.0.0.1', 0, '127.0.0.1', port, (error, stream) => (error ? reject(error) : resolve(stream)))
  )
}

function get(stream: NodeJS.ReadWriteStream & { once: ClientChannel['once'] }): Promise<string> {
  stream.write('GET / HTTP/1.0\r\nHost: localhost\r\n\r\n')
  return waitForText(stream as never, /<\/html>/)
}

describe('apps inside an emulated instance', () => {
  it('answers Jupyter’s port with the instance’s own page through direct-tcpip and the node port', async () => {
    const client = await connect()
    try {
      const page = await get(await forward(client, JUPYTER_PORT))
      expect(page).toMatch(/^HTTP\/1\.1 200/)
      expect(page).toContain('<h1>Jupyter on inst-apps</h1>')
      expect(page).not.toContain('the host machine')
    } finally {
      client.end()
    }
    const { connect: tcp } = await import('node:net')
    const socket = tcp({ host: '127.0.0.1', port: jupyterNodePort })
    const viaNodePort = await get(socket as never)
    socket.destroy()
    expect(viaNodePort).toContain('<h1>Jupyter on inst-apps</h1>')
  })

  it('stops serving the page with the instance', async () => {
    await reach.instanceStopped('inst-apps')
    await expect(connect()).rejects.toThrow(/ECONNREFUSED/)
    await reach.instanceRunning(cloud.instances.get('inst-apps')!)
  })
})

function sftpOf(client: ssh2.Client): Promise<SFTPWrapper> {
  return new Promise((resolve, reject) => client.sftp((error, session) => (error ? reject(error) : resolve(session))))
}

/** One SFTP session as alice, hung up after `use`. */
async function withSftp(use: (sftp: SFTPWrapper) => Promise<void>): Promise<void> {
  const client = await connect()
  try {
    await use(await sftpOf(client))
  } finally {
    client.end()
  }
}

function writeFile(sftp: SFTPWrapper, path: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => sftp.writeFile(path, data, (error) => (error ? reject(error) : resolve())))
}

describe.skipIf(
  skipBecause(sftpServerPath() ? undefined : 'OpenSSH’s sftp-server is not installed (Debian: openssh-sftp-server)', 'the SFTP fault tests')
)('SFTP faults', () => {
  afterAll(() => reach.setSftpFault('inst-apps', 'none'))

  it('read-only: every change is refused with permission denied', async () => {
    reach.setSftpFault('inst-apps', 'read-only')
    await withSftp(async (sftp) => {
      await expect(writeFile(sftp, 'nope.txt', Buffer.from('x'))).rejects.toMatchObject({ code: 3 }) // SSH_FX_PERMISSION_DENIED
    })
  })

  it('disk-full: a write larger than the small disk fails, a small one fits', async () => {
    reach.setSftpFault('inst-apps', 'disk-full')
    await withSftp(async (sftp) => {
      await writeFile(sftp, 'small.txt', Buffer.alloc(1024, 1))
      await expect(writeFile(sftp, 'big.bin', Buffer.alloc(SMALL_DISK_BYTES * 2, 2))).rejects.toMatchObject({ code: 4 }) // SSH_FX_FAILURE
    })
  })

  it('none: writes work again from the next session', async () => {
    reach.setSftpFault('inst-apps', 'none')
    await withSftp(async (sftp) => {
      await writeFile(sftp, 'fine.bin', Buffer.alloc(SMALL_DISK_BYTES * 2, 3))
    })
  })
})
