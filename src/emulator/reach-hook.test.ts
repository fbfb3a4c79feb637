import { afterEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../shared/clock'
import { sharedTestSigningKey, startEmulator, type Emulator } from './index'
import { login, pager, post, recordingReach, validCreate } from './testing/http-client'

let emulator: Emulator | undefined
afterEach(() => emulator?.close())

describe('the reach hook', () => {
  it('is told when instances enter and leave Running, and rewrites domain and addresses', async () => {
    const reach = recordingReach()
    emulator = await startEmulator({
      signingKeyPem: await sharedTestSigningKey(),
      clock: new ManualClock(),
      bootMs: 1000,
      stopMs: 100,
      reach: reach.factory,
      sshKeys: { demo: ['ssh-ed25519 AAAA demo'] }
    })
    const token = await login(emulator.baseUrl)
    const { instanceId } = (await post(emulator.baseUrl, '/instance/create', validCreate({ nodePorts: [8888] }), token)).body
    expect(reach.events).toEqual([])
    emulator.control.advance(1000)
    expect(reach.events).toEqual([`running ${instanceId}`])
    const view = reach.running.get(instanceId)!
    expect(view).toMatchObject({ owner: 'demo', instanceUsername: 'root', subUrl: `/notebook/${instanceId}/lab` })
    expect(view.nodePorts.map((entry) => entry.port)).toEqual([22, 8888])

    const listed = (await post(emulator.baseUrl, '/instance/list', pager(1, 10), token)).body.instances[0]
    expect(listed.instanceSpecInfo.regionInfo.domain).toBe('127.0.0.1:45678')
    expect(listed.instanceSpecInfo.nodePorts).toEqual(view.nodePorts)

    await post(emulator.baseUrl, '/instance/stop', { instanceId }, token)
    expect(reach.events.at(-1)).toBe(`stopped ${instanceId}`)
    await emulator.close()
    expect(reach.events.at(-1)).toBe('close')
    emulator = undefined
  })

  it('gives reach a context that checks tokens, finds instances and lists SSH keys', async () => {
    const reach = recordingReach()
    emulator = await startEmulator({
      signingKeyPem: await sharedTestSigningKey(),
      clock: new ManualClock(),
      reach: reach.factory,
      sshKeys: { demo: ['ssh-ed25519 AAAA demo'] }
    })
    const context = reach.context()
    const token = await login(emulator.baseUrl)
    expect(context.verifyToken(token)).toEqual({ username: 'demo' })
    expect(context.verifyToken(`${token}x`)).toBeUndefined()
    emulator.control.registerSshKey('demo', 'ssh-rsa BBBB second')
    expect(context.sshKeysFor('demo')).toEqual(['ssh-ed25519 AAAA demo', 'ssh-rsa BBBB second'])
    expect(context.sshKeysFor('nobody')).toEqual([])
    const [id] = await emulator.control.seedInstances('demo', 1)
    expect(reach.events).toEqual([`running ${id}`])
    expect(context.instance(id!)?.owner).toBe('demo')
    expect(context.instance('notebook-nope')).toBeUndefined()
    emulator.control.setStatus(id!, 'StartingFailed')
    expect(reach.events.at(-1)).toBe(`stopped ${id}`)
    emulator.control.expireTokens()
    expect(context.verifyToken(token)).toBeUndefined()
  })

  it('tells reach when a Running instance is terminated or preempted', async () => {
    const reach = recordingReach()
    emulator = await startEmulator({ signingKeyPem: await sharedTestSigningKey(), clock: new ManualClock(), reach: reach.factory })
    const token = await login(emulator.baseUrl)
    const [a, b] = await emulator.control.seedInstances('demo', 2, { isSpotInstance: true })
    await post(emulator.baseUrl, '/instance/terminate', { instanceId: a }, token)
    emulator.control.preempt(b!)
    expect(reach.events).toEqual([`running ${a}`, `running ${b}`, `stopped ${a}`, `stopped ${b}`])
  })
})
