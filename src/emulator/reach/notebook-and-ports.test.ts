import { connect, createServer, type Server } from 'node:net'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createReach, parseSshBackend, type EmulatorReach } from './index'
import { fakeCloud, freePort, type FakeCloud } from './testing/fake-cloud'
import type { EmuInstanceView } from '../reach-types'
import { REFUSED_PORT } from '../../shared/node/testing/refused-port'

let cloud: FakeCloud
let reach: EmulatorReach
let agent: Agent
let view: EmuInstanceView
let appPort: number
let app: Server

beforeAll(async () => {
  cloud = fakeCloud() // no state dir: certificate and homes in memory / temp
  cloud.tokens.set('token-of-alice', 'alice')
  cloud.tokens.set('token-of-bob', 'bob')
  // "An app inside the instance": a line-echo server on 127.0.0.1:<port>.
  app = createServer((socket) => socket.on('data', (data) => socket.write(`app heard: ${data.toString()}`)))
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
  appPort = (app.address() as { port: number }).port
  reach = await createReach()(cloud.context)
  view = {
    instanceId: 'inst-nb',
    owner: 'alice',
    instanceUsername: 'root',
    subUrl: '/notebook/inst-nb/',
    nodePorts: [
      { port: 22, address: '127.0.0.1', nodePort: await freePort() },
      { port: appPort, address: '127.0.0.1', nodePort: await freePort() }
    ]
  }
  cloud.instances.set(view.instanceId, view)
  await reach.instanceRunning(view)
  // Trust exactly the emulator's certificate, as the app's pin does.
  agent = new Agent({ connect: { ca: reach.notebookCertPem } })
})

afterAll(async () => {
  await agent.close()
  await reach.close()
  await new Promise<void>((resolve) => app.close(() => resolve()))
})

async function get(path: string, cookie?: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const response = await request(`https://${reach.notebookHost}${path}`, {
    dispatcher: agent,
    headers: cookie === undefined ? {} : { cookie }
  })
  return { status: response.statusCode, body: await response.body.text(), headers: response.headers }
}

describe('notebook endpoint', () => {
  it('answers the subUrl with the page when the AccessToken cookie is the owner’s', async () => {
    const page = await get('/notebook/inst-nb/', 'theme=dark; AccessToken=token-of-alice')
    expect(page.status).toBe(200)
    expect(page.body).toContain('Notebook on inst-nb')
    expect(page.headers['content-security-policy']).toContain("default-src 'none'")
    expect(page.headers['cache-control']).toBe('no-store')
    expect((await get('/notebook/inst-nb', 'AccessToken=token-of-alice')).status).toBe(200)
  })

  it('answers 401 with a sign-in page without the cookie, with a bad token, or with another user’s token', async () => {
    for (const cookie of [undefined, 'Other=token-of-alice', 'AccessToken=forged', 'AccessToken=token-of-bob']) {
      const page = await get('/notebook/inst-nb/', cookie)
      expect(page.status, String(cookie)).toBe(401)
      expect(page.body).toContain('Sign in from Cloud Tray')
    }
    expect(cloud.lines.join('\n')).not.toContain('token-of-bob')
  })

  it('answers 404 for other paths and once the instance stopped', async () => {
    expect((await get('/notebook/other/', 'AccessToken=token-of-alice')).status).toBe(404)
    await reach.instanceStopped(view.instanceId)
    expect((await get('/notebook/inst-nb/', 'AccessToken=token-of-alice')).status).toBe(404)
    await reach.instanceRunning(view)
    expect((await get('/notebook/inst-nb/', 'AccessToken=token-of-alice')).status).toBe(200)
  })

  it('is refused by a client that does not trust the emulator’s certificate', async () => {
    const strict = new Agent()
    try {
      await expect(request(`https://${reach.notebookHost}/notebook/inst-nb/`, { dispatcher: strict })).rejects.toThrow(
        /self.signed|certificate/i
      )
    } finally {
      await strict.close()
    }
  })
})

function roundTrip(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('error', reject)
    socket.once('connect', () => socket.write(text))
    socket.once('data', (data) => {
      socket.destroy()
      resolve(data.toString())
    })
  })
}

describe('forwarded node ports', () => {
  it('carries a connection on the nodePort to 127.0.0.1:<port>', async () => {
    const entry = view.nodePorts[1]!
    expect(await roundTrip(entry.nodePort, 'hello')).toBe('app heard: hello')
  })

  it('closes the connection when nothing listens inside, and says so in the log', async () => {
    const deadPort = REFUSED_PORT
    const nodePort = await freePort()
    const other: EmuInstanceView = {
      ...view,
      instanceId: 'inst-dead',
      subUrl: '/notebook/inst-dead/',
      nodePorts: [{ port: deadPort, address: '127.0.0.1', nodePort }]
    }
    await reach.instanceRunning(other)
    const closed = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: nodePort })
      socket.on('error', () => {})
      socket.once('close', () => resolve(true))
    })
    expect(closed).toBe(true)
    expect(cloud.lines.some((line) => line.includes(`nothing answers at 127.0.0.1:${deadPort}`))).toBe(true)
    await reach.instanceStopped(other.instanceId)
  })
})

describe('--ssh-backend', () => {
  it('parses HOST:PORT and refuses anything else', () => {
    expect(parseSshBackend('127.0.0.1:2222')).toEqual({ host: '127.0.0.1', port: 2222 })
    expect(parseSshBackend('[::1]:22')).toEqual({ host: '::1', port: 22 })
    for (const bad of ['127.0.0.1', ':22', 'host:0', 'host:70000', 'a b:22']) expect(() => parseSshBackend(bad), bad).toThrow(/HOST:PORT/)
  })

  it('makes every SSH node port a forwarder to the backend', async () => {
    // resume(): a socket nobody reads never sees the peer's end, and close() would wait for it.
    const backend = createServer((socket) => socket.resume().end('SSH-2.0-FakeBackend\r\n'))
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
    const backendPort = (backend.address() as { port: number }).port
    const backed = await createReach({ sshBackend: { host: '127.0.0.1', port: backendPort } })(fakeCloud().context)
    try {
      expect(backed.sshHostPublicKey).toBeUndefined()
      const nodePort = await freePort()
      await backed.instanceRunning({ ...view, nodePorts: [{ port: 22, address: '127.0.0.1', nodePort }] })
      expect(await roundTrip(nodePort, 'SSH-2.0-test\r\n')).toBe('SSH-2.0-FakeBackend\r\n')
    } finally {
      await backed.close()
      await new Promise<void>((resolve) => backend.close(() => resolve()))
    }
  })
})

describe('close', () => {
  it('leaves nothing listening, even for an instance whose ports were still binding', async () => {
    const quick = await createReach()(fakeCloud().context)
    const nodePorts = [
      { port: 22, address: '127.0.0.1', nodePort: await freePort() },
      { port: appPort, address: '127.0.0.1', nodePort: await freePort() }
    ]
    void quick.instanceRunning({ ...view, instanceId: 'inst-racing', nodePorts })
    await quick.close()
    for (const entry of nodePorts) {
      await expect(roundTrip(entry.nodePort, 'anyone?')).rejects.toThrow(/ECONNREFUSED/)
    }
    await quick.instanceRunning({ ...view, instanceId: 'inst-late', nodePorts })
    await expect(roundTrip(nodePorts[1]!.nodePort, 'anyone?')).rejects.toThrow(/ECONNREFUSED/)
  })
})
