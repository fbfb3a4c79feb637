/**
 * Is this instance the one our create made? Asked when a create's answer was lost (or a retry
 * follows one), by create-once.ts. The API takes no request id, so the name alone proves
 * nothing: another client (the user's other computer, a script, a colleague on the account)
 * may have made an instance of that name while our own request never arrived. The evidence:
 *
 * 1. The request's fields. An instance of another type, region, billing, spot setting, set of
 *    ports, storages or configuration than we asked for is not ours, whatever its name. (The
 *    image cannot be compared: an instance names its image, not the image id a create sends.)
 * 2. When it was made. createAtUnixMs is on the service's clock; our send time is on ours. With
 *    the offset the service's Date headers prove (server-clock.ts), our instance was made
 *    inside [sentAt + offset.min, settledAt + offset.max], widened by CLOCK_MARGIN_MS for the
 *    gap between the service's front (which stamps Date) and the machine that stamps
 *    createAtUnixMs. Before that window it cannot be ours: the request was not sent yet. After
 *    it, it may still be ours (a proxy that answered 504 can deliver the request later), or
 *    another client's: unsure. Without a known offset, only "older than the largest plausible
 *    skew" rules an instance out, and anything else is unsure.
 *
 * Exactly one matching instance inside the window is ours. Anything else that matches is
 * "unsure", and the user decides: open it, or create anyway.
 */
import type { Instance } from '../../../shared/api'
import type { CreateInstanceRequest } from '../../../shared/create-request'
import type { ServerClockOffset } from '../server-clock'

/** The front that stamps Date and the back end that stamps createAtUnixMs may differ this much. */
export const CLOCK_MARGIN_MS = 2_000
/** Without a measured offset: clocks further apart than this are not plausible. */
export const UNKNOWN_SKEW_MS = 10 * 60_000

export interface CreateAttempt {
  request: CreateInstanceRequest
  /** App clock, just before the request was sent. */
  sentAt: number
  /** App clock, when its failure was seen. */
  settledAt: number
  /** Ids of same-name instances that existed before, or that the user said are not this attempt's. */
  knownIds: ReadonlySet<string>
}

export type Verdict = { kind: 'ours'; instance: Instance } | { kind: 'unsure'; instance: Instance } | { kind: 'none' }

type Timing = 'before' | 'inside' | 'after-or-unknown'

/** True unless a field the answer carries differs from what the request asked for. */
export function matchesRequest(instance: Instance, request: CreateInstanceRequest): boolean {
  const spec = instance.instanceSpecInfo
  const billing = spec.instanceBillingInfo
  if (spec.name !== request.name) return false
  if (spec.instanceTypeInfo.instanceId !== request.instanceTypeId) return false
  if (spec.regionInfo.regionId !== '' && spec.regionInfo.regionId !== request.region) return false
  if (billing.chargeMode !== request.billing.chargeMode || billing.duration !== request.billing.duration) return false
  const spot = spec.isSpotInstance ?? (billing.type === '' ? undefined : billing.type === 'Spot')
  if (spot !== undefined && spot !== (request.isSpotInstance ?? false)) return false
  const ports = (list: readonly number[]): string => [...new Set(list.filter((port) => port !== 22))].sort((a, b) => a - b).join(',')
  if (ports(spec.nodePorts.map((entry) => entry.port)) !== ports(request.nodePorts)) return false
  if (spec.remoteStorages !== undefined) {
    const ids = (list: readonly { remoteStorageId?: string | undefined }[]): string =>
      list
        .map((s) => s.remoteStorageId ?? '')
        .sort()
        .join(',')
    if (ids(spec.remoteStorages) !== ids(request.remoteStorages)) return false
  }
  const configuration = spec.instanceConfiguration
  if (configuration !== undefined) {
    const asked = request.instanceConfiguration
    if (configuration.enableDocker !== asked.enableDocker || configuration.enableCommonData !== asked.enableCommonData) return false
  }
  return true
}

function timing(instance: Instance, attempt: CreateAttempt, offset: ServerClockOffset | undefined): Timing {
  const createdAt = instance.instanceRuntimeInfo.createAtUnixMs
  if (offset === undefined) return createdAt < attempt.sentAt - UNKNOWN_SKEW_MS ? 'before' : 'after-or-unknown'
  if (createdAt < attempt.sentAt + offset.min - CLOCK_MARGIN_MS) return 'before'
  if (createdAt <= attempt.settledAt + offset.max + CLOCK_MARGIN_MS) return 'inside'
  return 'after-or-unknown'
}

export function judgeCreated(instances: readonly Instance[], attempt: CreateAttempt, offset: ServerClockOffset | undefined): Verdict {
  const candidates = instances
    .filter((instance) => !attempt.knownIds.has(instance.instanceMetadata.instanceId) && matchesRequest(instance, attempt.request))
    .map((instance) => ({ instance, when: timing(instance, attempt, offset) }))
    .filter(({ when }) => when !== 'before')
    .sort((a, b) => a.instance.instanceRuntimeInfo.createAtUnixMs - b.instance.instanceRuntimeInfo.createAtUnixMs)
  const inside = candidates.filter(({ when }) => when === 'inside')
  if (inside.length === 1) return { kind: 'ours', instance: inside[0]!.instance }
  const first = (inside[0] ?? candidates[0])?.instance
  return first ? { kind: 'unsure', instance: first } : { kind: 'none' }
}
