/**
 * The create-instance form as data: the draft the user edits, the checks that run before
 * anything is sent (the same rules the emulator enforces, so most mistakes never leave the
 * window), the request it becomes, and "Paste request JSON" (the provider's console exports the
 * create body; pasting it fills the form). Field keys are the request's dotted paths, so an
 * `invalid-request` error from the server lands on the same field a client check would.
 */
import {
  CHARGE_MODES,
  HOURLY_CHARGE_MODES,
  isChargeMode,
  type ChargeMode,
  type CreateInstanceRequest
} from '../../../shared/api'

export interface StorageRow {
  /** Stable key for the row's DOM identity; not sent. */
  key: number
  mountPath: string
  remoteStorageName: string
  remoteStorageId: string
  type: string
}

export interface CreateDraft {
  name: string
  imageId: string
  instanceTypeId: string
  region: string
  chargeMode: ChargeMode
  duration: number | null
  storages: StorageRow[]
  extraDataDiskSizeGB: number | null
  enableCommonData: boolean
  enableDocker: boolean
  dockerStorageSize: number | null
  initScript: string
  isSpotInstance: boolean
  nodePorts: number[]
}

/** Field path → message. */
export type FieldErrors = Record<string, string>

// The emulator's limits (src/emulator/create-request.ts), so the form refuses what the server would.
export const NAME_MAX_LENGTH = 128
export const MAX_DURATION = 1000
export const MAX_DISK_GB = 100_000
export const MAX_NODE_PORTS = 16
/** SSH is always forwarded; listing 22 is refused. */
export const SSH_PORT = 22
export const STORAGE_TYPE_SUGGESTIONS = ['filesystem', 'highspeedstorage'] as const

let nextRowKey = 1

export function emptyDraft(): CreateDraft {
  return {
    name: '',
    imageId: '',
    instanceTypeId: '',
    region: '',
    chargeMode: 'perHour',
    duration: 1,
    storages: [],
    extraDataDiskSizeGB: 0,
    enableCommonData: false,
    enableDocker: false,
    dockerStorageSize: 0,
    initScript: '',
    isSpotInstance: false,
    nodePorts: []
  }
}

export function newStorageRow(): StorageRow {
  return { key: nextRowKey++, mountPath: '', remoteStorageName: '', remoteStorageId: '', type: 'filesystem' }
}

export function isHourly(mode: ChargeMode): boolean {
  return HOURLY_CHARGE_MODES.includes(mode)
}

/** Hourly modes are billed per hour with duration 1 (spec, Limits): the field locks to 1. */
export function withChargeMode(draft: CreateDraft, mode: ChargeMode): CreateDraft {
  return { ...draft, chargeMode: mode, duration: isHourly(mode) ? 1 : draft.duration }
}

function isWholeNumber(value: number | null, min: number): value is number {
  return value !== null && Number.isInteger(value) && value >= min
}

export function validateDraft(draft: CreateDraft): FieldErrors {
  const errors: FieldErrors = {}
  const name = draft.name.trim()
  if (!name) errors['name'] = 'Give the instance a name.'
  else if (name.length > NAME_MAX_LENGTH) errors['name'] = `Use at most ${NAME_MAX_LENGTH} characters.`
  if (!draft.imageId.trim()) errors['imageId'] = 'Choose an image.'
  if (!draft.instanceTypeId.trim()) errors['instanceTypeId'] = 'Choose an instance type.'
  if (!draft.region.trim()) errors['region'] = 'Choose a region.'
  if (!isChargeMode(draft.chargeMode)) errors['billing.chargeMode'] = 'Choose a billing mode.'
  if (isHourly(draft.chargeMode)) {
    if (draft.duration !== 1) errors['billing.duration'] = 'Hourly billing always runs for 1 period.'
  } else if (!isWholeNumber(draft.duration, 1)) {
    errors['billing.duration'] = 'Enter how many periods to subscribe, 1 or more.'
  }
  if (!isHourly(draft.chargeMode) && isWholeNumber(draft.duration, 1) && draft.duration > MAX_DURATION) {
    errors['billing.duration'] = `Subscribe for at most ${MAX_DURATION} periods.`
  }
  // The emulator asks only for a mount path; the other columns may be empty.
  draft.storages.forEach((row, index) => {
    if (!row.mountPath.trim()) errors[`remoteStorages.${index}.mountPath`] = 'Enter where to mount it, e.g. /data.'
  })
  const extra = draft.extraDataDiskSizeGB ?? 0
  if (!isWholeNumber(extra, 0) || extra > MAX_DISK_GB) {
    errors['instanceConfiguration.extraDataDiskSizeDB'] = `Enter a whole number of GB from 0 (none) to ${MAX_DISK_GB}.`
  }
  const docker = draft.dockerStorageSize ?? 0
  if (draft.enableDocker && (!isWholeNumber(docker, 0) || docker > MAX_DISK_GB)) {
    errors['instanceConfiguration.dockerStorageSize'] = `Enter a whole number of GB from 0 (the default) to ${MAX_DISK_GB}.`
  }
  if (draft.nodePorts.length > MAX_NODE_PORTS) errors['nodePorts'] = `Forward at most ${MAX_NODE_PORTS} ports.`
  const ports = new Set<number>()
  for (const port of draft.nodePorts) {
    const problem = nodePortProblem(port, ports)
    if (problem) {
      errors['nodePorts'] = problem
      break
    }
    ports.add(port)
  }
  return errors
}

function nodePortProblem(port: number, existing: ReadonlySet<number> | readonly number[]): string | null {
  if (!Number.isInteger(port) || port < 1 || port > 65535) return 'A port is a whole number from 1 to 65535.'
  if (port === SSH_PORT) return 'Port 22 (SSH) is always forwarded; no need to add it.'
  const taken = Array.isArray(existing) ? existing.includes(port) : (existing as ReadonlySet<number>).has(port)
  if (taken) return `Port ${port} is already in the list.`
  return null
}

/** Adds a port typed into the chip input; answers the new list or why it was refused. */
export function addNodePort(ports: readonly number[], text: string): { ports: number[] } | { error: string } {
  const trimmed = text.trim()
  if (!/^\d+$/.test(trimmed)) return { error: 'A port is a whole number from 1 to 65535.' }
  const port = Number(trimmed)
  const problem = nodePortProblem(port, ports)
  if (problem) return { error: problem }
  if (ports.length >= MAX_NODE_PORTS) return { error: `Forward at most ${MAX_NODE_PORTS} ports.` }
  return { ports: [...ports, port] }
}

export function draftToRequest(draft: CreateDraft): CreateInstanceRequest {
  const extra = draft.extraDataDiskSizeGB ?? 0
  const docker = draft.dockerStorageSize ?? 0
  return {
    name: draft.name.trim(),
    imageId: draft.imageId.trim(),
    instanceTypeId: draft.instanceTypeId.trim(),
    region: draft.region.trim(),
    billing: { chargeMode: draft.chargeMode, duration: isHourly(draft.chargeMode) ? 1 : (draft.duration ?? 1) },
    remoteStorages: draft.storages.map((row) => ({
      mountPath: row.mountPath.trim(),
      remoteStorageName: row.remoteStorageName.trim(),
      remoteStorageId: row.remoteStorageId.trim(),
      type: row.type.trim()
    })),
    instanceConfiguration: {
      extraDataDiskSizeDB: extra,
      enableCommonData: draft.enableCommonData,
      enableDocker: draft.enableDocker,
      dockerStorageSize: draft.enableDocker ? docker : 0,
      initScript: draft.initScript
    },
    isSpotInstance: draft.isSpotInstance,
    nodePorts: [...draft.nodePorts]
  }
}

/** `remoteStorages[0].mountPath` and `remoteStorages.0.mountPath` are the same field. */
export function normaliseFieldPath(path: string): string {
  return path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '')
}

export type PasteResult = { ok: true; draft: CreateDraft; ignored: string[] } | { ok: false; message: string }

const KNOWN_TOP = new Set([
  'name',
  'imageId',
  'instanceTypeId',
  'region',
  'billing',
  'remoteStorages',
  'instanceConfiguration',
  'isSpotInstance',
  'nodePorts'
])

function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : ''
}

function num(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value)
  return null
}

/**
 * Fills a draft from a pasted create body. Fields the body leaves out keep the current draft's
 * values; fields the form does not know are listed, not silently dropped.
 */
export function draftFromRequestJson(text: string, current: CreateDraft): PasteResult {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { ok: false, message: 'That is not JSON. Paste the request body exactly as the console exported it.' }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: 'Expected a JSON object: the body of a create-instance request.' }
  }
  const body = parsed as Record<string, unknown>
  if (!Object.keys(body).some((key) => KNOWN_TOP.has(key))) {
    return { ok: false, message: 'This JSON has none of the create-instance fields (name, imageId, instanceTypeId, …).' }
  }
  const ignored = Object.keys(body).filter((key) => !KNOWN_TOP.has(key))
  const draft: CreateDraft = { ...current, storages: [...current.storages], nodePorts: [...current.nodePorts] }
  if ('name' in body) draft.name = str(body['name'])
  if ('imageId' in body) draft.imageId = str(body['imageId'])
  if ('instanceTypeId' in body) draft.instanceTypeId = str(body['instanceTypeId'])
  if ('region' in body) draft.region = str(body['region'])
  const billing = body['billing']
  if (billing && typeof billing === 'object') {
    const b = billing as Record<string, unknown>
    if (isChargeMode(b['chargeMode'])) draft.chargeMode = b['chargeMode']
    else if (b['chargeMode'] !== undefined) ignored.push(`billing.chargeMode (${str(b['chargeMode']) || 'not a mode'}; expected one of ${CHARGE_MODES.join(', ')})`)
    if (b['duration'] !== undefined) draft.duration = num(b['duration'])
    if (isHourly(draft.chargeMode)) draft.duration = 1
  }
  if (Array.isArray(body['remoteStorages'])) {
    draft.storages = body['remoteStorages']
      .filter((row): row is Record<string, unknown> => typeof row === 'object' && row !== null)
      .map((row) => ({
        ...newStorageRow(),
        mountPath: str(row['mountPath']),
        remoteStorageName: str(row['remoteStorageName']),
        remoteStorageId: str(row['remoteStorageId']),
        type: str(row['type'])
      }))
  }
  const config = body['instanceConfiguration']
  if (config && typeof config === 'object') {
    const c = config as Record<string, unknown>
    if (c['extraDataDiskSizeDB'] !== undefined) draft.extraDataDiskSizeGB = num(c['extraDataDiskSizeDB'])
    if (typeof c['enableCommonData'] === 'boolean') draft.enableCommonData = c['enableCommonData']
    if (typeof c['enableDocker'] === 'boolean') draft.enableDocker = c['enableDocker']
    if (c['dockerStorageSize'] !== undefined) draft.dockerStorageSize = num(c['dockerStorageSize'])
    if (typeof c['initScript'] === 'string') draft.initScript = c['initScript']
  }
  if (typeof body['isSpotInstance'] === 'boolean') draft.isSpotInstance = body['isSpotInstance']
  if (Array.isArray(body['nodePorts'])) {
    const ports: number[] = []
    for (const value of body['nodePorts']) {
      // The console exports numbers; some exports use {port: n}. Take both.
      const port = num(typeof value === 'object' && value !== null ? (value as { port?: unknown }).port : value)
      if (port !== null && Number.isInteger(port) && port >= 1 && port <= 65535 && !ports.includes(port)) ports.push(port)
      else ignored.push(`nodePorts: ${JSON.stringify(value)}`)
    }
    draft.nodePorts = ports
  }
  return { ok: true, draft, ignored }
}
