/**
 * The app's notebook pieces against the emulator over real sockets: the URL the app computes
 * from the listed instance, the cookie it computes from the login token, and the pin it checks,
 * all accepted by the emulator's notebook endpoint; and 401 without the cookie.
 */
import { createHash } from 'node:crypto'
import { connect as tlsConnect } from 'node:tls'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ListInstancesResponseSchema, type Instance } from '../../shared/api'
import { startEmulator, type Emulator } from '../../emulator/index'
import { createReach, type EmulatorReach } from '../../emulator/reach/index'
import { login, post, validCreate } from '../../emulator/testing/http-client'
import { cookieHeader, notebookCookie } from './notebook-cookie'
import { notebookUrl } from './notebook-url'
import { isPinnedCertificate, pinFor } from './certificate-pin'

let emulator: Emulator
let reach: EmulatorReach
let agent: Agent
let token: string
let instance: Instance

beforeAll(async () => {
  emulator = await startEmulator({
    bootMs: 0,
    users: [
      { username: 'demo', password: 'demo' },
      { username: 'other', password: 'other' }
    ],
    reach: async (context) => (reach = await createReach()(context))
  })
  agent = new Agent({ connect: { ca: reach.notebookCertPem } })
  token = await login(emulator.baseUrl)
  const created = await post(emulator.baseUrl, '/instance/create', validCreate({ nodePorts: [] }), token)
  expect(created.status).toBe(200)
  // bootMs 0: the emulator's timers fire on the next turns; a bounded look until it is Running.
  for (let attempt = 0; attempt < 200; attempt++) {
    const listed = await post(emulator.baseUrl, '/instance/list', { pager: { currentPage: 1, pageSize: 10 } }, token)
    const found = ListInstancesResponseSchema.parse(listed.body).instances?.find(
      (each) => each.instanceMetadata.instanceId === created.body.instanceId
    )
    if (found?.instanceRuntimeInfo.status === 'Running') {
      instance = found
      return
    }
    await new Promise((resolve) => setImmediate(resolve))
  }
  throw new Error('the instance did not reach Running')
})

afterAll(async () => {
  await agent.close()
  await emulator.close()
})

async function getPage(url: string, cookie?: string): Promise<{ status: number; body: string }> {
  const response = await request(url, { dispatcher: agent, headers: cookie === undefined ? {} : { cookie } })
  return { status: response.statusCode, body: await response.body.text() }
}

describe('notebook against the emulator', () => {
  it('answers 200 to exactly the cookie the app computes, and 401 without it', async () => {
    const url = notebookUrl(instance)
    expect(url).toBe(`https://${reach.notebookHost}${instance.instanceRuntimeInfo.subUrl}`)
    const cookie = notebookCookie(url!, token)
    expect(cookie.url).toBe(`https://${reach.notebookHost}`)
    const page = await getPage(url!, cookieHeader(cookie))
    expect(page.status).toBe(200)
    expect(page.body).toContain(instance.instanceMetadata.instanceId)
    expect((await getPage(url!)).status).toBe(401)
  })

  it('answers 401 to another account’s cookie', async () => {
    const otherToken = await login(emulator.baseUrl, 'other', 'other')
    const url = notebookUrl(instance)!
    expect((await getPage(url, cookieHeader(notebookCookie(url, otherToken)))).status).toBe(401)
  })

  it('serves the certificate the Sandbox pin names, in the form Electron reports it', async () => {
    const url = new URL(notebookUrl(instance)!)
    const der = await new Promise<Buffer>((resolve, reject) => {
      const socket = tlsConnect({ host: url.hostname, port: Number(url.port), ca: reach.notebookCertPem, servername: 'localhost' }, () => {
        resolve(socket.getPeerCertificate().raw)
        socket.end()
      })
      socket.once('error', reject)
    })
    const electronFingerprint = `sha256/${createHash('sha256').update(der).digest('base64')}`
    expect(isPinnedCertificate(url.hostname, electronFingerprint, pinFor(url.href, reach.notebookCertSha256))).toBe(true)
    expect(isPinnedCertificate('localhost', electronFingerprint, pinFor(url.href, reach.notebookCertSha256))).toBe(false)
  })
})
