/**
 * An instance as `cloud-tray list` and `status` show it: a row for people, and the stable JSON
 * shape scripts read (`--json`; documented in the README, checked by src/cli/cli.test.ts against
 * a schema). Cost figures are the app's estimates (the cost guard's meter), moved on to now.
 */
import type { Instance } from '../shared/api'
import type { CostSnapshot, InstanceMeter } from '../shared/contract-cost'
import { formatDuration, formatRate } from '../shared/cost-words'
import { statusGroup } from '../shared/instance-rules'
import { formatDollars } from '../shared/money'
import { statusWords } from '../shared/status-words'
import { shown } from './output'

/** Bumped only when a field changes meaning or goes away; new fields may appear at any time. */
export const LIST_JSON_VERSION = 1

export interface InstanceJson {
  id: string
  name: string
  /** As the cloud reports it (`Running`, `PullingImage`, …). */
  status: string
  /** As Cloud Tray words it (`Running`, `Downloading image`, …). */
  statusText: string
  phase: string | null
  type: { id: string; name: string; gpus: number; gpu: string }
  region: { id: string; name: string; code: string }
  spot: boolean
  /** ISO 8601, UTC. */
  createdAt: string
  billing: { chargeMode: string; price: number; unit: string }
  /** Dollars per hour while it is billed; null when it is not (stopped, released). */
  hourlyRate: number | null
  /** Seconds this run has lasted; null when it is not billed. */
  uptimeSeconds: number | null
  /** Dollars this run has cost so far (an estimate; the provider's bill is the truth); null when it is not billed. */
  costSoFar: number | null
}

export interface ListJson {
  version: number
  /** When the app last read the list from the cloud (ISO 8601), null before the first read. */
  fetchedAt: string | null
  instances: InstanceJson[]
}

/** The meter of each billed instance, moved on from the snapshot's time to `now`. */
export function metersAt(cost: CostSnapshot | undefined, now: number): Map<string, InstanceMeter> {
  const meters = new Map<string, InstanceMeter>()
  if (!cost) return meters
  const elapsed = Math.max(0, now - cost.at)
  for (const entry of cost.instances) {
    const meter = entry.meter
    const costSoFar = meter.plan ? meter.costSoFar : meter.costSoFar + (meter.hourlyRate * elapsed) / 3_600_000
    meters.set(entry.instanceId, { ...meter, uptimeMs: meter.uptimeMs + elapsed, costSoFar })
  }
  return meters
}

const round = (value: number, places: number): number => Number(value.toFixed(places))

export function instanceJson(instance: Instance, meter: InstanceMeter | undefined): InstanceJson {
  const spec = instance.instanceSpecInfo
  const runtime = instance.instanceRuntimeInfo
  const type = spec.instanceTypeInfo
  return {
    id: instance.instanceMetadata.instanceId,
    name: spec.name,
    status: runtime.status,
    statusText: statusWords(runtime.status),
    phase: runtime.phase ?? null,
    type: { id: type.instanceId, name: type.instanceTypeName, gpus: type.gpu.amount, gpu: type.gpu.type },
    region: { id: spec.regionInfo.regionId, name: spec.regionInfo.name, code: spec.regionInfo.value },
    spot: spec.isSpotInstance === true,
    createdAt: new Date(runtime.createAtUnixMs).toISOString(),
    billing: {
      chargeMode: spec.instanceBillingInfo.chargeMode,
      price: spec.instanceBillingInfo.price,
      unit: spec.instanceBillingInfo.unit
    },
    hourlyRate: meter ? round(meter.hourlyRate, 4) : null,
    uptimeSeconds: meter ? Math.floor(meter.uptimeMs / 1000) : null,
    costSoFar: meter ? round(meter.costSoFar, 4) : null
  }
}

/** Shown by default; `--all` adds those that ended (stopped, archived, released). */
export function isLive(instance: Instance): boolean {
  return statusGroup(instance.instanceRuntimeInfo.status) !== 'ended'
}

export const LIST_HEADER = ['NAME', 'STATUS', 'TYPE', 'REGION', 'UPTIME', 'RATE', 'COST SO FAR', 'ID']

export function listRow(row: InstanceJson): string[] {
  return [
    shown(row.name),
    shown(row.statusText),
    shown(row.type.name),
    shown(row.region.code || row.region.name),
    row.uptimeSeconds === null ? '-' : formatDuration(row.uptimeSeconds * 1000),
    row.hourlyRate === null ? '-' : formatRate(row.hourlyRate),
    row.costSoFar === null ? '-' : `≈ ${formatDollars(row.costSoFar)}`,
    shown(row.id)
  ]
}
