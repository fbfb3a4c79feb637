/**
 * One cloud client per API address, shared by every profile that points there, each reading the
 * session's credential (its API key, else its token) at every request (so a re-login needs no
 * new client). The undici client is
 * loaded on first need, keeping it off the start-up path of a shell that never signs in.
 */
import type { Profile } from '../../shared/contract'
import { AppError } from '../app-error'
import type { CloudClient, CloudClientOptions } from './types'
import type { NetworkRoute } from '../network/network-route'

export type CloudClientFactory = (options: CloudClientOptions) => CloudClient

export interface CloudClientsOptions {
  /** The session's token, read at each request (main only). */
  token: () => string | undefined
  /** The session's console API key, read at each request (main only); sent instead of the token. */
  apiKey?: () => string | undefined
  /** The app's clock: the client measures the server's clock offset against it (create-once). */
  now: () => number
  /** Default: createCloudClient from ./client, loaded by load(). */
  factory?: CloudClientFactory | undefined
  /** Proxies and TLS trust for the cloud (network/network-route.ts); absent: direct, Node's roots. */
  network?: NetworkRoute | undefined
}

export class CloudClients {
  private readonly clients = new Map<string, CloudClient>()
  private factory: CloudClientFactory | undefined

  constructor(private readonly options: CloudClientsOptions) {
    this.factory = options.factory
  }

  /** Loads the default client's code, once. */
  async load(): Promise<void> {
    if (this.factory) return
    const module = await import('./client')
    this.factory = module.createCloudClient
  }

  /** The client for a profile's API. Throws AppError `internal` while that address is not known yet. */
  for(profile: Profile): CloudClient {
    if (!profile.baseUrl) {
      throw new AppError('internal', 'The Sandbox is still starting. Try again in a moment.')
    }
    let client = this.clients.get(profile.baseUrl)
    if (!client) {
      if (!this.factory) throw new AppError('internal', 'The cloud client is not loaded yet. Try again in a moment.')
      client = this.factory({
        baseUrl: profile.baseUrl,
        token: this.options.token,
        ...(this.options.apiKey ? { apiKey: this.options.apiKey } : {}),
        ...(this.options.network ? { network: this.options.network } : {}),
        now: this.options.now
      })
      this.clients.set(profile.baseUrl, client)
    }
    return client
  }

  /**
   * Asks the profile's cloud whether it accepts this API key (one list call sending only the
   * key), before any session holds it. Throws the call's CloudError.
   */
  async checkApiKey(profile: Profile, apiKey: string): Promise<void> {
    if (!this.factory) throw new AppError('internal', 'The cloud client is not loaded yet. Try again in a moment.')
    if (!profile.baseUrl) throw new AppError('internal', 'The Sandbox is still starting. Try again in a moment.')
    const client = this.factory({
      baseUrl: profile.baseUrl,
      token: () => undefined,
      apiKey: () => apiKey,
      now: this.options.now,
      ...(this.options.network ? { network: this.options.network } : {})
    })
    try {
      await client.listInstances({ currentPage: 1, pageSize: 1 })
    } finally {
      await client.close().catch(() => undefined)
    }
  }

  /** Closes every client's connections (quitting). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.clients.values()].map((client) => client.close().catch(() => undefined)))
    this.clients.clear()
  }
}
