import { afterEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../../shared/clock'
import type { Instance } from '../../shared/api'
import type { CreateInstanceRequest } from '../../shared/create-request'
import { CloudError } from '../cloud/errors'
import type { CloudClient } from '../cloud/types'
import { createCoreRig, createRequest, type CoreRig } from '../test-support/core-harness'
import { fakeInstance } from '../test-support/fake-instance'
import { createInstanceOnce, createOutcomeUnknown } from './create-once'

describe('createOutcomeUnknown', () => {
  const network = (code: string | undefined, message = 'x') =>
    new CloudError('network', message, code === undefined ? {} : { cause: Object.assign(new Error(code), { code }) })
  it.each([
    ['a reset connection', network('ECONNRESET'), true],
    ['an answer timeout', network('UND_ERR_HEADERS_TIMEOUT'), true],
    ['a network failure of unknown cause', network(undefined), true],
    ['a refused connection', network('ECONNREFUSED'), false],
    ['an unresolved name', network('ENOTFOUND'), false],
    ['a connect timeout', network('UND_ERR_CONNECT_TIMEOUT'), false],
    ['an untrusted certificate', network('DEPTH_ZERO_SELF_SIGNED_CERT'), false],
    ['a 5xx', new CloudError('server', 'The service failed (503).'), true],
    ['a garbled 2xx', new CloudError('unexpected-response', 'The answer was not JSON.'), true],
    ['an invalid field', new CloudError('invalid-request', 'field "name" is not set'), false],
    ['an expired login', new CloudError('not-logged-in', 'Sign in again.'), false],
    ['not a CloudError', new Error('boom'), false]
  ])('%s → %s', (_label, error, unknown) => {
    expect(createOutcomeUnknown(error)).toBe(unknown)
  })
})

describe('a create whose answer is lost is never duplicated', () => {
  let rig: CoreRig
  afterEach(async () => rig?.close())

  const named = (name: string) =>
    rig.emulator.control.instances('demo').filter((instance) => instance.instanceSpecInfo.name === name)

  it('finds the instance by name right after the answer is lost', async () => {
    rig = await createCoreRig()
    await rig.login()
    // Let the poll that follows login finish, so the fault below hits the create and nothing else.
    await rig.call('instances.refresh')
    rig.emulator.control.faults.loseNextAnswers(1)
    const result = await rig.call('instances.create', { request: createRequest(rig.emulator, 'lost-answer') })
    expect(result.ok).toBe(true)
    const created = named('lost-answer')
    expect(created).toHaveLength(1)
    if (result.ok) expect(result.value.instanceId).toBe(created[0]!.instanceMetadata.instanceId)
  })

  it('creates a second instance of the same name when the user asks after a definite answer', async () => {
    rig = await createCoreRig()
    await rig.login()
    const first = await rig.call('instances.create', { request: createRequest(rig.emulator, 'twice') })
    const second = await rig.call('instances.create', { request: createRequest(rig.emulator, 'twice') })
    expect(first.ok && second.ok).toBe(true)
    expect(named('twice')).toHaveLength(2)
  })
})

/** A cloud whose create answers can be lost and whose list can fail, counting creates sent. */
function flakyCloud(clock: ManualClock) {
  const instances: Instance[] = []
  const state = { createsSent: 0, loseCreateAnswers: 0, failLists: 0 }
  const cloud = {
    async createInstance(request: CreateInstanceRequest) {
      state.createsSent++
      const instance = fakeInstance(`notebook-${state.createsSent}`, request.name, 'Initializing', { createAtUnixMs: clock.now() })
      instances.push(instance)
      if (state.loseCreateAnswers > 0) {
        state.loseCreateAnswers--
        throw new CloudError('network', 'The connection was cut off before an answer came.')
      }
      return { instanceId: instance.instanceMetadata.instanceId }
    },
    async listAllInstances() {
      if (state.failLists > 0) {
        state.failLists--
        throw new CloudError('network', 'The connection was cut off before an answer came.')
      }
      return [...instances]
    }
  } as unknown as CloudClient
  return { cloud, state, instances }
}

describe('createInstanceOnce', () => {
  const request = { name: 'gpu-box' } as CreateInstanceRequest

  it("looks the instance up before the user's retry and sends no second create", async () => {
    const clock = new ManualClock()
    const { cloud, state } = flakyCloud(clock)
    const creator = createInstanceOnce(clock)
    state.loseCreateAnswers = 1
    state.failLists = 1 // the immediate look-up fails too: the user sees the error
    await expect(creator.create(cloud, request, [])).rejects.toMatchObject({ kind: 'network' })
    clock.advance(5_000)
    await expect(creator.create(cloud, request, [])).resolves.toEqual({ instanceId: 'notebook-1', recovered: true })
    expect(state.createsSent).toBe(1)
  })

  it('does not mistake an older instance of the same name for the lost one', async () => {
    const clock = new ManualClock()
    const { cloud, state, instances } = flakyCloud(clock)
    const creator = createInstanceOnce(clock)
    await creator.create(cloud, request, [])
    const known = [...instances]
    state.loseCreateAnswers = 1
    const recovered = await creator.create(cloud, request, known)
    expect(recovered).toEqual({ instanceId: 'notebook-2', recovered: true })
    expect(state.createsSent).toBe(2)
  })

  it('sends the retry when the look-up shows nothing was created', async () => {
    const clock = new ManualClock()
    const { cloud, state, instances } = flakyCloud(clock)
    const creator = createInstanceOnce(clock)
    state.loseCreateAnswers = 1
    state.failLists = 1
    await expect(creator.create(cloud, request, [])).rejects.toMatchObject({ kind: 'network' })
    instances.length = 0 // the cloud did not keep it after all
    await expect(creator.create(cloud, request, [])).resolves.toEqual({ instanceId: 'notebook-2', recovered: false })
    expect(state.createsSent).toBe(2)
  })
})
