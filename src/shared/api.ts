/**
 * The cloud API of ../shared/spec/cloud-api.md, as zod schemas (for responses, parsed at the
 * network boundary) and TypeScript types (for requests, which we build ourselves).
 *
 * zod objects strip unknown keys instead of failing on them: the real service may add fields
 * at any time and the app must keep working. Fields the spec says "may be absent in abbreviated
 * list responses" are optional.
 */
import { z } from 'zod'

// ---------------------------------------------------------------- billing

export const CHARGE_MODES = ['perHour', 'tidePerHour', 'perDay', 'perWeek', 'perMonth'] as const
export type ChargeMode = (typeof CHARGE_MODES)[number]

/** Hourly modes must be created with duration 1 (spec, Limits). */
export const HOURLY_CHARGE_MODES: readonly ChargeMode[] = ['perHour', 'tidePerHour']

export function isChargeMode(value: unknown): value is ChargeMode {
  return typeof value === 'string' && (CHARGE_MODES as readonly string[]).includes(value)
}

// ---------------------------------------------------------------- statuses

// Status values, their classes and what each allows: src/shared/instance-rules.ts.

// ---------------------------------------------------------------- pager

export interface PagerRequest {
  currentPage: number
  pageSize: number
}

export const PagerResponseSchema = z.object({
  currentPage: z.number(),
  pageSize: z.number(),
  totalEntries: z.number()
})
export type PagerResponse = z.infer<typeof PagerResponseSchema>

// ---------------------------------------------------------------- login

export interface LoginRequest {
  username: string
  password: string
  rememberMe?: boolean
}

export const LoginResultSchema = z.object({
  accessToken: z.string().min(1),
  accessExpire: z.number()
})
export type LoginResult = z.infer<typeof LoginResultSchema>

// ---------------------------------------------------------------- instance

const AmountSchema = z.object({
  amount: z.number(),
  type: z.string(),
  unit: z.string()
})
export type Amount = z.infer<typeof AmountSchema>

export const InstanceBillingInfoSchema = z.object({
  chargeMode: z.string(),
  duration: z.number(),
  price: z.number(),
  unit: z.string(),
  type: z.string()
})

export const ImageInfoSchema = z.object({
  architecture: z.string(),
  isPublic: z.string(),
  name: z.string(),
  tags: z.array(z.string()).nullable(),
  type: z.string()
})
export type ImageInfo = z.infer<typeof ImageInfoSchema>

export const InstanceConfigurationInfoSchema = z.object({
  enableCommonData: z.boolean(),
  enableDocker: z.boolean(),
  InstanceDiskAmountRequest: z.object({
    rootDiskAmountGiReq: z.number(),
    dataDiskAmountGiReq: z.number()
  }),
  dockerStorageSize: z.number()
})

export const InstanceTypeInfoSchema = z.object({
  instanceId: z.string(),
  instanceTypeName: z.string(),
  cpu: AmountSchema,
  memory: AmountSchema,
  gpu: AmountSchema,
  disk: AmountSchema
})
export type InstanceTypeInfo = z.infer<typeof InstanceTypeInfoSchema>

export const RegionInfoSchema = z.object({
  domain: z.string(),
  location: z.string(),
  name: z.string(),
  sshAddress: z.string(),
  value: z.string(),
  regionId: z.string()
})
export type RegionInfo = z.infer<typeof RegionInfoSchema>

export const NodePortSchema = z.object({
  port: z.number(),
  // The SSH target falls back to regionInfo.sshAddress when an entry comes without an address.
  address: z.string().optional(),
  nodePort: z.number()
})
export type NodePort = z.infer<typeof NodePortSchema>

export const RemoteStorageSchema = z.object({
  mountPath: z.string().optional(),
  remoteStorageName: z.string().optional(),
  remoteStorageId: z.string().optional(),
  type: z.string().optional()
})

export const InstanceSchema = z.object({
  instanceMetadata: z.object({
    instanceAuth: z.object({ ownerUserName: z.string() }),
    instanceId: z.string(),
    instanceUsername: z.string()
  }),
  instanceSpecInfo: z.object({
    name: z.string(),
    instanceBillingInfo: InstanceBillingInfoSchema,
    imageInfo: ImageInfoSchema.optional(),
    instanceConfiguration: InstanceConfigurationInfoSchema.optional(),
    instanceTypeInfo: InstanceTypeInfoSchema,
    regionInfo: RegionInfoSchema,
    remoteStorages: z.array(RemoteStorageSchema).optional(),
    nodePorts: z.array(NodePortSchema),
    isSpotInstance: z.boolean().optional()
  }),
  instanceRuntimeInfo: z.object({
    createAtUnixMs: z.number(),
    status: z.string(),
    phase: z.string().optional(),
    message: z.string().optional(),
    diagnosisReason: z.string().optional(),
    diagnosisMessage: z.string().optional(),
    healthy: z.boolean(),
    subUrl: z.string(),
    instanceDiskUsageInfo: z.object({ rootDiskUsedGi: z.number(), dataDiskUsedGi: z.number() }).optional(),
    instanceDiskAmountInfo: z.object({ rootDiskAmountGi: z.number(), dataDiskAmountGi: z.number() }).optional(),
    stopTimestamp: z.number().optional(),
    scheduledStopTimestamp: z.number().optional()
  })
})
export type Instance = z.infer<typeof InstanceSchema>

/**
 * A list row the app could not read (a required field missing or of the wrong type): shown as
 * "could not be read" with its id, while the rest of the list stands.
 */
export interface UnreadableInstance {
  /** The row's instanceMetadata.instanceId when it has a usable one. */
  instanceId: string | null
  /** What is wrong, naming the field: `instanceRuntimeInfo.status is missing`. */
  problem: string
}

/** Reads one row: the instance, or what keeps it from being read. */
export function readInstanceRow(row: unknown): { instance: Instance } | { unreadable: UnreadableInstance } {
  const parsed = InstanceSchema.safeParse(row)
  if (parsed.success) return { instance: parsed.data }
  const issue = parsed.error.issues[0]
  const field = issue?.path.map(String).join('.') ?? ''
  const missing = issue?.code === 'invalid_type' && /received undefined/.test(issue.message)
  return {
    unreadable: {
      instanceId: rowId(row),
      problem: field ? `${field} ${missing ? 'is missing' : 'is not what the API documents'}` : 'the row is not an object'
    }
  }
}

function rowId(row: unknown): string | null {
  const id = (row as { instanceMetadata?: { instanceId?: unknown } } | null)?.instanceMetadata?.instanceId
  // Shown as text (never markup); bounded so a hostile id cannot flood a view.
  return typeof id === 'string' && id.trim() !== '' ? id.trim().slice(0, 200) : null
}

/** One bad row never sinks the list: each is read on its own (readInstanceRow). */
export const ListInstancesResponseSchema = z
  .object({
    instances: z.array(z.unknown()),
    pager: PagerResponseSchema
  })
  .transform(({ instances: rows, pager }) => {
    const instances: Instance[] = []
    const unreadable: UnreadableInstance[] = []
    for (const row of rows) {
      const read = readInstanceRow(row)
      if ('instance' in read) instances.push(read.instance)
      else unreadable.push(read.unreadable)
    }
    return { instances, unreadable, pager }
  })
export type ListInstancesResponse = z.output<typeof ListInstancesResponseSchema>

/** Every page of the list: the instances, and the rows that could not be read. */
export interface InstanceListing {
  instances: Instance[]
  unreadable: UnreadableInstance[]
}

// The create request (POST /instance/create's body): src/shared/create-request.ts.

export const InstanceIdResponseSchema = z.object({ instanceId: z.string().min(1) })
export type InstanceIdResponse = z.infer<typeof InstanceIdResponseSchema>

// ---------------------------------------------------------------- volumes

export const VOLUME_TYPE_SUGGESTIONS = ['filesystem', 'highspeedstorage'] as const

export interface CreateVolumeRequest {
  name: string
  sizeGB: number
  region: string
  volumeType: string
}

export const VolumeSchema = z.object({
  id: z.string(),
  volumeName: z.string(),
  region: z.string(),
  volumeType: z.string(),
  sizeGB: z.number(),
  usageGB: z.number(),
  status: z.string(),
  username: z.string()
})
export type Volume = z.infer<typeof VolumeSchema>

export const CreateVolumeResponseSchema = z.object({ volume: VolumeSchema })
export const ListVolumesResponseSchema = z.object({ volumeList: z.array(VolumeSchema) })

// ---------------------------------------------------------------- error bodies

/** `{code: -1, message}`: token missing or expired. */
export const NOT_LOGGED_IN_CODE = -1
/** `{code: 10008, message, values: {v0}}`: wrong user name or password; v0 = retries left. */
export const BAD_CREDENTIALS_CODE = 10008

export const ErrorBodySchema = z.object({
  code: z.number().optional(),
  message: z.string(),
  values: z.record(z.string(), z.unknown()).optional()
})
export type ErrorBody = z.infer<typeof ErrorBodySchema>
