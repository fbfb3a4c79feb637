/**
 * Creating an instance is not idempotent and the API takes no request id, so a create whose
 * answer was lost (connection reset, timeout, a 5xx from a proxy, a garbled 2xx) may have made
 * an instance anyway. Sending it again would start a second paid GPU machine. So when the
 * outcome is unknown, and again before the user's retry goes out, we look for the instance this
 * attempt made. The name is not enough (another client may have made one of that name while
 * our request never arrived): create-evidence.ts ties an instance to the attempt by its fields
 * and its creation time. When the evidence is not conclusive, the user is asked (an error of
 * kind `maybe-created` naming the instance) and may open it or create anyway.
 */
import type { Instance } from '../../../shared/api'
import type { CreateInstanceRequest } from '../../../shared/create-request'
import type { Clock } from '../../../shared/clock'
import type { CloudClient } from '../types'
import { TLS_CODES, errorCode } from '../classify'
import { isCloudError } from '../errors'
import { AppError } from '../../app-error'
import { judgeCreated, type CreateAttempt, type Verdict } from './create-evidence'

/**
 * Network failures that happen before a request can reach the service: nothing was created.
 * (A reset, a headers/body timeout, or a cut-off answer may come after the cloud acted.)
 */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'UND_ERR_CONNECT_TIMEOUT'])

/** True when the request may have reached the cloud although no answer told us so. */
export function createOutcomeUnknown(error: unknown): boolean {
  if (!isCloudError(error)) return false
  if (error.kind === 'server' || error.kind === 'unexpected-response') return true
  if (error.kind !== 'network') return false
  const code = errorCode(error.cause)
  // A TLS failure happens during the handshake, before the request is written.
  return code === undefined || !(NEVER_SENT_CODES.has(code) || TLS_CODES.has(code))
}

export interface CreateOptions {
  /** Instances the user said are not from this attempt ("Create anyway"): never taken as it. */
  notMine?: readonly string[]
}

export interface CreateOnce {
  create(
    cloud: CloudClient,
    request: CreateInstanceRequest,
    knownInstances: readonly Instance[],
    options?: CreateOptions
  ): Promise<{ instanceId: string; recovered: boolean }>
}

/** The user decides: this instance may or may not be what the attempt made. */
export function maybeCreatedError(instance: Instance, formatTime: (ms: number) => string): AppError {
  const name = instance.instanceSpecInfo.name
  return new AppError(
    'maybe-created',
    `An instance named “${name}” (created ${formatTime(instance.instanceRuntimeInfo.createAtUnixMs)}, ` +
      `${instance.instanceRuntimeInfo.status}) exists, but Cloud Tray cannot tell whether your create made it or ` +
      'someone else did. Open it to check, or create anyway to make a new one.',
    { field: 'name', instanceId: instance.instanceMetadata.instanceId }
  )
}

/** "2026-01-01 14:05:09 UTC": unambiguous in a message, whatever the user's time zone. */
function utc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')
}

export function createInstanceOnce(clock: Clock): CreateOnce {
  const uncertainByName = new Map<string, CreateAttempt>()

  async function lookUp(cloud: CloudClient, attempt: CreateAttempt): Promise<Verdict> {
    const { instances } = await cloud.listAllInstances()
    // Read after the list: the freshest proof of the service's clock.
    return judgeCreated(instances, attempt, cloud.serverClock?.())
  }

  function settle(name: string, verdict: Verdict): { instanceId: string; recovered: boolean } | undefined {
    if (verdict.kind === 'none') return undefined
    // Unsure: the attempt stays uncertain, so a plain retry asks again instead of sending.
    if (verdict.kind === 'unsure') throw maybeCreatedError(verdict.instance, utc)
    uncertainByName.delete(name)
    return { instanceId: verdict.instance.instanceMetadata.instanceId, recovered: true }
  }

  return {
    async create(cloud, request, knownInstances, options = {}) {
      const notMine = options.notMine ?? []
      const sameName = knownInstances
        .filter((instance) => instance.instanceSpecInfo.name === request.name)
        .map((instance) => instance.instanceMetadata.instanceId)
      const earlier = uncertainByName.get(request.name)
      if (earlier) {
        // A previous attempt's outcome is unknown: if it did create the instance, that is the answer.
        const verdict = await lookUp(cloud, { ...earlier, knownIds: new Set([...earlier.knownIds, ...notMine]) })
        const found = settle(request.name, verdict)
        if (found) return found
      }
      const attempt: CreateAttempt = {
        request,
        sentAt: clock.now(),
        settledAt: clock.now(),
        knownIds: new Set([...(earlier?.knownIds ?? []), ...sameName, ...notMine])
      }
      try {
        const created = await cloud.createInstance(request)
        uncertainByName.delete(request.name)
        return { instanceId: created.instanceId, recovered: false }
      } catch (error) {
        // A definite refusal (invalid field, expired login) created nothing this time.
        if (!createOutcomeUnknown(error)) throw error
        attempt.settledAt = clock.now()
        uncertainByName.set(request.name, attempt)
        // Often the instance is already listed: then the user never has to retry at all.
        const verdict = await lookUp(cloud, attempt).catch(() => ({ kind: 'none' }) as const)
        const found = settle(request.name, verdict)
        if (found) return found
        throw error
      }
    }
  }
}
