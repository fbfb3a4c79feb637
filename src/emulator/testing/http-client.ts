/**
 * Helpers for the emulator's own tests: plain fetch against a live emulator, the way any HTTP
 * client would talk to it. Not imported by the emulator itself.
 */
import type { CreateInstanceRequest } from '../../shared/create-request'
import { validCreateRequest } from '../../shared/testing/create-request'
import { DEFAULT_CATALOG } from '../catalog'
import { sharedTestSigningKey, startEmulator, type Emulator } from '../index'
import type { EmuInstanceView, ReachContext } from '../reach-types'

export interface Answer {
  status: number
  body: any
}

export async function post(baseUrl: string, path: string, body: unknown, token?: string): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { cookie: `AccessToken=${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body)
  })
  const text = await response.text()
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) }
}

/**
 * The control plane over HTTP with the run's secret, as curl or a test in another process uses
 * it: a GET without a body, a POST with one.
 */
export function controlClient(emulator: { controlUrl: string; controlSecret: string }): (path: string, body?: unknown) => Promise<Answer> {
  return async (path, body) => {
    const response = await fetch(`${emulator.controlUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${emulator.controlSecret}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) }
  }
}

export async function login(baseUrl: string, username = 'demo', password = 'demo'): Promise<string> {
  const answer = await post(baseUrl, '/user/login', { username, password })
  if (answer.status !== 200) throw new Error(`login failed: ${JSON.stringify(answer.body)}`)
  return answer.body.accessToken as string
}

/** An emulator on the shared test signing key (`options` set the rest), with demo signed in on it. */
export async function signedInEmulator(options: Parameters<typeof startEmulator>[0] = {}): Promise<{ emulator: Emulator; token: string }> {
  const emulator = await startEmulator({ signingKeyPem: await sharedTestSigningKey(), ...options })
  return { emulator, token: await login(emulator.baseUrl) }
}

export const REGION_ID = DEFAULT_CATALOG.regions[0]!.regionId
export const TYPE_ID = DEFAULT_CATALOG.instanceTypes[0]!.instanceTypeId
export const IMAGE_ID = DEFAULT_CATALOG.images[0]!.imageId

/** The app's valid create request, for the emulator's default catalogue. */
export function emulatorCreateRequest(overrides: Partial<CreateInstanceRequest> = {}): CreateInstanceRequest {
  return validCreateRequest({ imageId: IMAGE_ID, instanceTypeId: TYPE_ID, region: REGION_ID, ...overrides })
}

/** A create body that passes every check, with the spec's optional fields too; tests delete or change one field. */
export function validCreate(overrides: Record<string, unknown> = {}): Record<string, any> {
  return {
    ...emulatorCreateRequest({ name: 'train-llm', nodePorts: [8888] }),
    instanceConfiguration: {
      extraDataDiskSizeDB: 100,
      enableCommonData: false,
      enableDocker: false,
      dockerStorageSize: 0,
      initScript: ''
    },
    isSpotInstance: false,
    ...overrides
  }
}

export function pager(currentPage: number, pageSize: number): { pager: { currentPage: number; pageSize: number } } {
  return { pager: { currentPage, pageSize } }
}

/** A reach that records what the API tells it, standing in for E1's SSH / notebook / forwarders. */
export function recordingReach(options: { holdStarts?: boolean } = {}) {
  const events: string[] = []
  let context: ReachContext | undefined
  const running = new Map<string, EmuInstanceView>()
  /** With `holdStarts`: each instance's start, still binding until `releaseStarts`. */
  const held: (() => void)[] = []
  const starting: { count: number; resolve: () => void }[] = []
  return {
    events,
    running,
    context: () => context!,
    /** Resolves once `count` starts are held (`holdStarts`). */
    starting: (count: number): Promise<void> =>
      held.length >= count ? Promise.resolve() : new Promise<void>((resolve) => starting.push({ count, resolve })),
    /** The held starts finish: their instances' listeners are bound. */
    releaseStarts: () => {
      for (const release of held.splice(0)) release()
    },
    factory: async (ctx: ReachContext) => {
      context = ctx
      return {
        notebookHost: '127.0.0.1:45678',
        sshAddress: '127.0.0.1',
        async instanceRunning(view: EmuInstanceView) {
          events.push(`running ${view.instanceId}`)
          running.set(view.instanceId, view)
          if (!options.holdStarts) return
          const bound = new Promise<void>((resolve) => held.push(resolve))
          for (const waiter of starting.filter((entry) => held.length >= entry.count)) {
            starting.splice(starting.indexOf(waiter), 1)
            waiter.resolve()
          }
          await bound
          events.push(`listening ${view.instanceId}`)
        },
        async instanceStopped(instanceId: string) {
          events.push(`stopped ${instanceId}`)
          running.delete(instanceId)
        },
        async close() {
          events.push('close')
        }
      }
    }
  }
}
