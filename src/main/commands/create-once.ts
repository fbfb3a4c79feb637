/**
 * Creating an instance is not idempotent and the API takes no request id, so a create whose
 * answer was lost (connection reset, timeout, a 5xx from a proxy, a garbled 2xx) may have made
 * an instance anyway. Sending it again would start a second paid GPU machine. So when the
 * outcome is unknown, and again before the user's retry goes out, we look the instance up by
 * name: an instance with that name that we had not seen before the first attempt is ours.
 */
import type { Instance } from '../../shared/api'
import type { CreateInstanceRequest } from '../../shared/create-request'
import type { Clock } from '../../shared/clock'
import type { CloudClient } from '../cloud/types'
import { TLS_CODES, errorCode } from '../cloud/classify'
import { isCloudError } from '../cloud/errors'

/** Server and app clocks may disagree; an instance older than this before our attempt is not ours. */
const CLOCK_SKEW_MS = 10 * 60_000

interface UncertainCreate {
  startedAt: number
  /** Ids that already carried this name before the first attempt (from the watcher's snapshot). */
  knownIds: Set<string>
}

/**
 * Network failures that happen before a request can reach the service: nothing was created.
 * (A reset, a headers/body timeout, or a cut-off answer may come after the cloud acted.)
 */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'UND_ERR_CONNECT_TIMEOUT'
])

/** True when the request may have reached the cloud although no answer told us so. */
export function createOutcomeUnknown(error: unknown): boolean {
  if (!isCloudError(error)) return false
  if (error.kind === 'server' || error.kind === 'unexpected-response') return true
  if (error.kind !== 'network') return false
  const code = errorCode(error.cause)
  // A TLS failure happens during the handshake, before the request is written.
  return code === undefined || !(NEVER_SENT_CODES.has(code) || TLS_CODES.has(code))
}

export function findCreatedByName(
  instances: readonly Instance[],
  name: string,
  uncertain: UncertainCreate
): Instance | undefined {
  return instances
    .filter(
      (instance) =>
        instance.instanceSpecInfo.name === name &&
        !uncertain.knownIds.has(instance.instanceMetadata.instanceId) &&
        instance.instanceRuntimeInfo.createAtUnixMs >= uncertain.startedAt - CLOCK_SKEW_MS
    )
    .sort((a, b) => a.instanceRuntimeInfo.createAtUnixMs - b.instanceRuntimeInfo.createAtUnixMs)[0]
}

export interface CreateOnce {
  create(
    cloud: CloudClient,
    request: CreateInstanceRequest,
    knownInstances: readonly Instance[]
  ): Promise<{ instanceId: string; recovered: boolean }>
}

export function createInstanceOnce(clock: Clock): CreateOnce {
  const uncertainByName = new Map<string, UncertainCreate>()

  async function lookUp(cloud: CloudClient, name: string, uncertain: UncertainCreate): Promise<Instance | undefined> {
    return findCreatedByName(await cloud.listAllInstances(), name, uncertain)
  }

  return {
    async create(cloud, request, knownInstances) {
      const earlier = uncertainByName.get(request.name)
      if (earlier) {
        // A previous attempt's outcome is unknown: if it did create the instance, that is the answer.
        const found = await lookUp(cloud, request.name, earlier)
        if (found) {
          uncertainByName.delete(request.name)
          return { instanceId: found.instanceMetadata.instanceId, recovered: true }
        }
      }
      const attempt: UncertainCreate = earlier ?? {
        startedAt: clock.now(),
        knownIds: new Set(
          knownInstances
            .filter((instance) => instance.instanceSpecInfo.name === request.name)
            .map((instance) => instance.instanceMetadata.instanceId)
        )
      }
      try {
        const created = await cloud.createInstance(request)
        uncertainByName.delete(request.name)
        return { instanceId: created.instanceId, recovered: false }
      } catch (error) {
        // A definite refusal (invalid field, expired login) created nothing this time.
        if (!createOutcomeUnknown(error)) throw error
        uncertainByName.set(request.name, attempt)
        // Often the instance is already listed: then the user never has to retry at all.
        const found = await lookUp(cloud, request.name, attempt).catch(() => undefined)
        if (found) {
          uncertainByName.delete(request.name)
          return { instanceId: found.instanceMetadata.instanceId, recovered: true }
        }
        throw error
      }
    }
  }
}
