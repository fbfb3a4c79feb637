/**
 * What the rest of main sees of the cloud: one client per base URL. The implementation is
 * client.ts (undici); every method rejects only with CloudError (errors.ts).
 */
import type { LookupFunction } from 'node:net'
import type { NetworkRoute } from '../network/network-route'
import type { ServerClockOffset } from './server-clock'
import type { Balance } from '../../shared/balance'
import type { InstanceCatalog } from '../../shared/catalog'
import type {
  CreateVolumeRequest,
  InstanceIdResponse,
  InstanceListing,
  ListInstancesResponse,
  LoginRequest,
  LoginResult,
  PagerRequest,
  Volume
} from '../../shared/api'
import type { CreateInstanceRequest } from '../../shared/create-request'

export interface CloudClientOptions {
  /** e.g. https://hpc-ai.com/api or http://127.0.0.1:4000/api (no trailing slash needed). */
  baseUrl: string
  /** Read at each request, so a re-login is picked up without a new client. */
  token: () => string | undefined
  /**
   * The session's console API key, read at each request: when there is one it is sent as
   * `X-API-Key` instead of the token (the token then only serves notebook pages).
   */
  apiKey?: () => string | undefined
  connectTimeoutMs?: number
  /** Time allowed between body chunks / for headers. */
  bodyTimeoutMs?: number
  /** Extra TLS trust for the Sandbox's self-signed certificate, pinned by the caller. */
  ca?: string
  /** The app's clock (default Date.now), against which the service's clock is measured. */
  now?: () => number
  /** Name resolution instead of the system's (tests: made-up host names on loopback). */
  lookup?: LookupFunction
  /**
   * The proxy for each address and the TLS trust (Node's roots and the OS's). Absent: direct,
   * Node's roots only (the Sandbox, tests).
   */
  network?: NetworkRoute
}

export interface CloudClient {
  readonly baseUrl: string
  login(request: LoginRequest): Promise<LoginResult>
  listInstances(pager: PagerRequest): Promise<ListInstancesResponse>
  /** Walks every page; pages after the first are fetched concurrently. Rows that cannot be read are listed apart. */
  listAllInstances(options?: { pageSize?: number }): Promise<InstanceListing>
  createInstance(request: CreateInstanceRequest): Promise<InstanceIdResponse>
  stopInstance(instanceId: string): Promise<InstanceIdResponse>
  /** Ends an instance for good (provider endpoint beyond the spec). */
  terminateInstance(instanceId: string): Promise<InstanceIdResponse>
  createVolume(request: CreateVolumeRequest): Promise<Volume>
  listVolumes(pager: PagerRequest): Promise<Volume[]>
  /** The instance types on offer, per region, with stock and prices (the launch form's feed, beyond the spec). */
  catalog(): Promise<InstanceCatalog>
  /** GET /balance (beyond the spec). */
  balance(): Promise<Balance>
  /**
   * How far the service's clock is from the app's, as the latest answer with a Date header
   * proved it (server-clock.ts); undefined until one came.
   */
  serverClock?(): ServerClockOffset | undefined
  /** Closes the keep-alive pool. */
  close(): Promise<void>
}
