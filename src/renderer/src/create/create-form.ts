/**
 * The create-instance form as data: the draft the user edits, the checks that run before
 * anything is sent (the rules and bounds of src/shared/create-request.ts, the schema main
 * checks with, in the user's words; limits only the cloud knows are its to answer), the request
 * it becomes, and "Paste request JSON" (the provider's console exports the create body; pasting
 * it fills the form). Field keys are the request's dotted paths, so an `invalid-request` error
 * from the server lands on the same field a client check would.
 */
import { CHARGE_MODES, HOURLY_CHARGE_MODES, isChargeMode, type ChargeMode } from '../../../shared/api'
import {
  CREATE_REQUEST_FIELDS,
  DurationSchema,
  MAX_INIT_SCRIPT_LENGTH,
  MAX_LIST_LENGTH,
  MAX_PORT,
  MAX_TEXT_LENGTH,
  MIN_PORT,
  SizeGBSchema,
  type CreateInstanceRequest
} from '../../../shared/create-request'
import type { FieldProblem } from '../../../shared/errors'
import { SSH_PORT } from '../../../shared/instance-rules'

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
  /** A port typed into the box but not added yet: added on Create, or Create stops on it. Not sent. */
  pendingPort: string
  /** What the user calls the image (kept in their image book on Create). Not sent. */
  imageLabel: string
}

/** Field path → message. */
export type FieldErrors = Record<string, string>

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
    nodePorts: [],
    pendingPort: '',
    imageLabel: ''
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

/**
 * What is wrong with a size in GB, in the form's words; undefined when the request's own rule
 * (SizeGBSchema: whole, 0 or more, exact) takes it. Empty counts as 0, as the form sends it.
 */
function sizeProblem(value: number | null, zeroMeans: string): string | undefined {
  if (SizeGBSchema.safeParse(value ?? 0).success) return undefined
  if (value === null || !Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER)
    return 'No disk is that big: enter a size in GB.'
  if (value < 0) return `Enter a size in GB, 0 (${zeroMeans}) or more.`
  return 'Enter whole gigabytes: a disk has no part of one.'
}

const TOO_LONG = `Use at most ${MAX_TEXT_LENGTH} characters.`

/** A required one-line field: its problem, or undefined. */
function textProblem(value: string, missing: string): string | undefined {
  const trimmed = value.trim()
  if (!trimmed) return missing
  return trimmed.length > MAX_TEXT_LENGTH ? TOO_LONG : undefined
}

export function validateDraft(draft: CreateDraft): FieldErrors {
  const errors: FieldErrors = {}
  const required: [keyof CreateDraft & keyof CreateInstanceRequest, string, string][] = [
    ['name', draft.name, 'Give the instance a name.'],
    ['imageId', draft.imageId, 'Choose an image.'],
    ['instanceTypeId', draft.instanceTypeId, 'Choose an instance type.'],
    ['region', draft.region, 'Choose a region.']
  ]
  for (const [field, value, missing] of required) {
    const problem = textProblem(value, missing)
    if (problem) errors[field] = problem
  }
  if (!isChargeMode(draft.chargeMode)) errors['billing.chargeMode'] = 'Choose a billing mode.'
  if (isHourly(draft.chargeMode)) {
    if (draft.duration !== 1) errors['billing.duration'] = 'Hourly billing always runs for 1 period.'
  } else if (!DurationSchema.safeParse(draft.duration).success) {
    errors['billing.duration'] = 'Enter how many periods to subscribe: a whole number, 1 or more.'
  }
  if (draft.storages.length > MAX_LIST_LENGTH) errors['remoteStorages'] = `Mount at most ${MAX_LIST_LENGTH} storages.`
  // Only a mount path is required; the other columns are the cloud's to judge.
  draft.storages.forEach((row, index) => {
    const path = `remoteStorages.${index}`
    const mountProblem = textProblem(row.mountPath, 'Enter where to mount it, e.g. /data.')
    if (mountProblem) errors[`${path}.mountPath`] = mountProblem
    for (const field of ['remoteStorageName', 'remoteStorageId', 'type'] as const) {
      if (row[field].trim().length > MAX_TEXT_LENGTH) errors[`${path}.${field}`] = TOO_LONG
    }
  })
  const diskProblem = sizeProblem(draft.extraDataDiskSizeGB, 'none')
  if (diskProblem) errors['instanceConfiguration.extraDataDiskSizeDB'] = diskProblem
  const dockerProblem = draft.enableDocker ? sizeProblem(draft.dockerStorageSize, 'the default') : undefined
  if (dockerProblem) errors['instanceConfiguration.dockerStorageSize'] = dockerProblem
  if (draft.initScript.length > MAX_INIT_SCRIPT_LENGTH) {
    errors['instanceConfiguration.initScript'] =
      `Keep the script under ${MAX_INIT_SCRIPT_LENGTH / 1024} KiB of text; fetch a longer one from inside the instance.`
  }
  if (draft.nodePorts.length > MAX_LIST_LENGTH) errors['nodePorts'] = `Forward at most ${MAX_LIST_LENGTH} ports.`
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

const PORT_RANGE = `A port is a whole number from ${MIN_PORT} to ${MAX_PORT}.`

/**
 * The ports are a set, and SSH's is forwarded without asking (every instance the API lists has
 * a port-22 entry, `nodePorts: []` included), so the chips refuse a repeat and 22 as pointless.
 */
function nodePortProblem(port: number, existing: ReadonlySet<number> | readonly number[]): string | null {
  if (!Number.isInteger(port) || port < MIN_PORT || port > MAX_PORT) return PORT_RANGE
  if (port === SSH_PORT) return 'Port 22 (SSH) is always forwarded; no need to add it.'
  const taken = Array.isArray(existing) ? existing.includes(port) : (existing as ReadonlySet<number>).has(port)
  if (taken) return `Port ${port} is already in the list.`
  return null
}

/**
 * Before Create: a port still in the box (typed, not added) joins the list, or Create stops with
 * why it cannot, next to the box. Nothing the user typed is dropped.
 */
export function withPendingPort(draft: CreateDraft): { draft: CreateDraft } | { error: string } {
  const text = draft.pendingPort.trim()
  if (text === '') return { draft }
  const added = addNodePort(draft.nodePorts, text)
  if ('error' in added) return { error: `“${text}” is still in the port box and was not added: ${added.error}` }
  return { draft: { ...draft, nodePorts: added.ports, pendingPort: '' } }
}

/** Adds a port typed into the chip input; answers the new list or why it was refused. */
export function addNodePort(ports: readonly number[], text: string): { ports: number[] } | { error: string } {
  const trimmed = text.trim()
  if (!/^\d+$/.test(trimmed)) return { error: PORT_RANGE }
  const port = Number(trimmed)
  const problem = nodePortProblem(port, ports)
  if (problem) return { error: problem }
  if (ports.length >= MAX_LIST_LENGTH) return { error: `Forward at most ${MAX_LIST_LENGTH} ports.` }
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

/** The form's field (its error slot) for a path the cloud names: every port is the port list's. */
export function formFieldKey(path: string): string {
  const normal = normaliseFieldPath(path)
  return normal.startsWith('nodePorts') ? 'nodePorts' : normal
}

/** What each size-like field counts, for "The cloud takes 0 to 100000 GB here." */
const UNITS: Record<string, string> = {
  'instanceConfiguration.extraDataDiskSizeDB': 'GB',
  'instanceConfiguration.dockerStorageSize': 'GB',
  'billing.duration': 'periods'
}

/** Quotes the cloud's words for the user: one line, bounded (they are untrusted text). */
function quoted(said: string): string {
  const line = said.replace(/\s+/g, ' ').trim()
  return `“${line.length > 200 ? `${line.slice(0, 199)}…` : line}”`
}

/**
 * A refusal of the cloud for one field, in the form's words: its limits where the answer names
 * them (a length, a range), else what it said, quoted. The real limits are the cloud's (the spec
 * states none): the form learns them from this answer, next to the field, with the input kept.
 */
export function cloudFieldWords(problem: FieldProblem): string {
  const said = problem.said
  const field = normaliseFieldPath(problem.field).replace(/\.\d+(?=\.|$)/g, '')
  const longest = /at most (\d+) characters/i.exec(said)
  if (longest) return `The cloud takes at most ${longest[1]} characters here; shorten it.`
  const range = /between (-?\d+(?:\.\d+)?) and (-?\d+(?:\.\d+)?)/i.exec(said)
  if (range) {
    const unit = UNITS[field]
    return `The cloud takes ${range[1]} to ${range[2]}${unit ? ` ${unit}` : ''} here.`
  }
  if (/is not set|must not be empty/i.test(said)) return 'The cloud needs this filled in.'
  if (/whole number/i.test(said)) return 'The cloud takes whole numbers only here.'
  if (/out of stock/i.test(said)) return 'Out of stock in this region now: choose another type or region.'
  if (/no (image|instance type|region) with id/i.test(said)) return `The cloud knows no such id: ${quoted(said)}.`
  return `The cloud refused this: ${quoted(said)}.`
}

/** Every field a refusal names, as the form's error slots with the form's words (the first problem of a field wins). */
export function cloudFieldErrors(problems: readonly FieldProblem[]): FieldErrors {
  const errors: FieldErrors = {}
  for (const problem of problems) {
    const key = formFieldKey(problem.field)
    errors[key] ??= cloudFieldWords(problem)
  }
  return errors
}

export type PasteResult = { ok: true; draft: CreateDraft; ignored: string[] } | { ok: false; message: string }

const KNOWN_TOP = new Set<string>(CREATE_REQUEST_FIELDS)

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
    else if (b['chargeMode'] !== undefined)
      ignored.push(`billing.chargeMode (${str(b['chargeMode']) || 'not a mode'}; expected one of ${CHARGE_MODES.join(', ')})`)
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
      if (port !== null && Number.isInteger(port) && port >= MIN_PORT && port <= MAX_PORT && !ports.includes(port)) ports.push(port)
      else ignored.push(`nodePorts: ${JSON.stringify(value)}`)
    }
    draft.nodePorts = ports
  }
  return { ok: true, draft, ignored }
}
