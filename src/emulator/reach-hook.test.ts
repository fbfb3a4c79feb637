import { afterEach, describe, expect, it } from 'vitest'
import { flushAsync, ManualClock } from '../shared/clock'
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

  it('answers a seed only once its instances can be reached (their listeners bound)', async () => {
    // A seeded instance stands for one that has been running a while: its SSH server answers as
    // soon as the seed is answered. Before, the seed was answered while the servers were still
    // binding, and a client on an emulated clock (bench/gpu-probe.ts) got ECONNREFUSED on its
    // first probe: one reading of 600 missed, now and then.
    const reach = recordingReach({ holdStarts: true })
    emulator = await startEmulator({ signingKeyPem: await sharedTestSigningKey(), clock: new ManualClock(), reach: reach.factory })
    let seeded = false
    const seeding = emulator.control.seedInstances('demo', 2).then((ids) => ((seeded = true), ids))
    await reach.starting(2)
    // Every promise the seed could be waiting on has settled, bar the two held starts.
    await flushAsync()
    expect(seeded).toBe(false)
    reach.releaseStarts()
    const [a, b] = await seeding
    expect(reach.events).toEqual([`running ${a}`, `running ${b}`, `listening ${a}`, `listening ${b}`])
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
