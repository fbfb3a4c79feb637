/**
 * The instance commands on fakes: main refuses exactly what the shared rules refuse (the window
 * offers the same), and notes this app's own actions so they are not announced as news.
 */
import { describe, expect, it } from 'vitest'
import type { Instance } from '../../shared/api'
import { ManualClock } from '../../shared/clock'
import { INSTANCE_STATUSES, canStop, canTerminate } from '../../shared/instance-rules'
import { makeInstance } from '../../shared/testing/instance'
import type { SessionState } from '../../shared/contract'
import { CloudError } from '../cloud/errors'
import type { CloudClient } from '../cloud/types'
import type { OwnAction } from '../notify/notifier'
import { instanceCommands, type InstanceServices } from './instances'

const context = { clientId: 'c1' }

function rig(instances: Instance[], cloud: Partial<CloudClient> = {}) {
  const calls: string[] = []
  const own: string[] = []
  const signedIn: SessionState = { status: 'signed-in', profileId: 'sandbox', remembered: false, keychain: 'available' }
  const client = {
    stopInstance: async (id: string) => (calls.push(`stop ${id}`), { instanceId: id }),
    terminateInstance: async (id: string) => (calls.push(`terminate ${id}`), { instanceId: id }),
    ...cloud
  } as CloudClient
  const services: InstanceServices = {
    clock: new ManualClock(),
    account: { cloud: () => client, state: () => signedIn },
    watch: {
      snapshot: () => ({ instances, fetchedAt: 1, mode: 'steady' }),
      find: (id) => instances.find((instance) => instance.instanceMetadata.instanceId === id),
      pollNow: async () => {},
      actionHappened: () => void calls.push('poll fast')
    },
    own: {
      noteOwnAction: (action: OwnAction, id: string) => void own.push(`+${action} ${id}`),
      forgetOwnAction: (action: OwnAction, id: string) => void own.push(`-${action} ${id}`)
    },
    catalog: { imageUsed: async () => {} },
    emit: (event) => void calls.push(`event ${event}`)
  }
  return { group: instanceCommands(services), calls, own }
}

describe('instance commands', () => {
  it.each([...INSTANCE_STATUSES, 'Hibernating'])('stop and delete follow the shared rules while %s', async (status) => {
    const instance = makeInstance({ id: 'i-1', status })
    const { group, calls } = rig([instance])
    const stop = group.handlers['instances.stop']({ instanceId: 'i-1' }, context)
    const terminate = group.handlers['instances.terminate']({ instanceId: 'i-1' }, context)
    const outcome = async (answer: Promise<unknown>) =>
      answer.then(
        () => 'sent',
        (error: Error) => error.message
      )
    expect(await outcome(stop)).toBe(canStop(instance) ? 'sent' : `«train-1» is ${status}; there is nothing to stop.`)
    expect(await outcome(terminate)).toBe(canTerminate(instance) ? 'sent' : '«train-1» is already released; there is nothing to delete.')
    expect(calls.filter((call) => call.startsWith('stop')).length).toBe(canStop(instance) ? 1 : 0)
  })

  it('notes its own stop before asking, and forgets it when the cloud refuses', async () => {
    const { group, calls, own } = rig([makeInstance({ id: 'i-1' })], {
      stopInstance: async () => {
        throw new CloudError('invalid-request', 'already stopped')
      }
    })
    await expect(group.handlers['instances.stop']({ instanceId: 'i-1' }, context)).rejects.toThrow('already stopped')
    expect(own).toEqual(['+stop i-1', '-stop i-1'])
    expect(calls).toEqual([])
  })

  it('polls fast after an action that went through', async () => {
    const { group, calls, own } = rig([makeInstance({ id: 'i-1' })])
    await group.handlers['instances.terminate']({ instanceId: 'i-1' }, context)
    expect(calls).toEqual(['terminate i-1', 'poll fast'])
    expect(own).toEqual(['+terminate i-1'])
  })
})
