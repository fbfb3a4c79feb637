import { describe, expect, it } from 'vitest'
import type { Profile } from '../../shared/contract'
import { AppError } from '../app-error'
import { CloudClients } from './cloud-clients'
import type { CloudClient, CloudClientOptions } from './types'

const profile = (id: string, baseUrl: string): Profile => ({ id, name: id, baseUrl })

function rig() {
  const made: CloudClientOptions[] = []
  const closed: string[] = []
  const clients = new CloudClients({
    token: () => 'the-token',
    now: () => 0,
    factory: (options) => {
      made.push(options)
      return { baseUrl: options.baseUrl, close: async () => void closed.push(options.baseUrl) } as CloudClient
    }
  })
  return { clients, made, closed }
}

describe('CloudClients', () => {
  it('shares one client per API address, reading the token at each request', () => {
    const { clients, made } = rig()
    const a = clients.for(profile('a', 'https://one.example/api'))
    expect(clients.for(profile('b', 'https://one.example/api'))).toBe(a)
    expect(clients.for(profile('c', 'https://two.example/api'))).not.toBe(a)
    expect(made.map((options) => options.baseUrl)).toEqual(['https://one.example/api', 'https://two.example/api'])
    expect(made[0]!.token()).toBe('the-token')
  })

  it('says to wait while the Sandbox has no address yet', () => {
    const { clients } = rig()
    expect(() => clients.for(profile('sandbox', ''))).toThrow(AppError)
    expect(() => clients.for(profile('sandbox', ''))).toThrow(/still starting/)
  })

  it('closes every client once', async () => {
    const { clients, closed } = rig()
    clients.for(profile('a', 'https://one.example/api'))
    clients.for(profile('b', 'https://two.example/api'))
    await clients.closeAll()
    await clients.closeAll()
    expect(closed.sort()).toEqual(['https://one.example/api', 'https://two.example/api'])
  })

  it('loads the real client on first need', async () => {
    const clients = new CloudClients({ token: () => undefined, now: () => 0 })
    expect(() => clients.for(profile('a', 'https://one.example/api'))).toThrow(/not loaded yet/)
    await clients.load()
    expect(clients.for(profile('a', 'https://one.example/api')).baseUrl).toBe('https://one.example/api')
    await clients.closeAll()
  })
})
