/**
 * POST /instance/create's body (../shared/spec/cloud-api.md), described once: main checks what a
 * renderer sends with this schema, the create form takes its numbers and field list from it, and
 * the request type is inferred from it.
 *
 * It carries the bounds the spec states (every field required but the optional ones, a known
 * charge mode, duration 1 for the hourly modes) and a few the app chooses, each with its reason
 * beside it. Limits the spec does not state (a name's length, how many ports) are the cloud's
 * to enforce: its answer lands on the field it names. The emulator reads the body with its own
 * code (src/emulator/create-request.ts): it plays the server and stays an independent check.
 */
import { z } from 'zod'
import { CHARGE_MODES, HOURLY_CHARGE_MODES } from './api'

/**
 * The app's cap on one-line text (names, ids, paths): a renderer is untrusted input to main, so
 * every string it sends is bounded; this is far beyond any real id or name.
 */
export const MAX_TEXT_LENGTH = 1_000
/**
 * The app's cap on the init script: generous for a start-up script, yet it keeps one create
 * request well inside a single IPC or WebSocket message (1 MiB), whatever the characters.
 */
export const MAX_INIT_SCRIPT_LENGTH = 128 * 1024
/** The app's cap on list lengths (mounts, ports), for the same reason as the text cap. */
export const MAX_LIST_LENGTH = 100
/** A forwarded port is a TCP port inside the instance. */
export const MIN_PORT = 1
export const MAX_PORT = 65_535

const text = z.string().max(MAX_TEXT_LENGTH)
/**
 * The largest size in GB a request carries: beyond it a number no longer counts whole
 * gigabytes exactly (Number.MAX_SAFE_INTEGER). The cloud's own limit, lower, comes in its answer.
 */
export const MAX_SIZE_GB = Number.MAX_SAFE_INTEGER
/**
 * A size in GB: whole gigabytes (no disk has half of one), 0 or more (the spec's defaults are 0:
 * none, or the default size), finite and exact. The create form checks its size fields with it.
 */
export const SizeGBSchema = z.number().int().min(0).max(MAX_SIZE_GB)
/** A number of billing periods: whole, at least one, exact. The form's duration is checked with it. */
export const DurationSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)

export const RemoteStorageRequestSchema = z
  .object({
    // A mount needs a place to mount; the other three are the cloud's to judge.
    mountPath: text.min(1),
    remoteStorageName: text,
    remoteStorageId: text,
    type: text
  })
  .strict()

export const CreateInstanceRequestSchema = z
  .object({
    // The app's own: create-once finds a lost create's instance again by its name.
    name: text.min(1),
    imageId: text.min(1),
    instanceTypeId: text.min(1),
    region: text.min(1),
    billing: z
      .object({
        chargeMode: z.enum(CHARGE_MODES),
        duration: DurationSchema
      })
      .strict(),
    remoteStorages: z.array(RemoteStorageRequestSchema).max(MAX_LIST_LENGTH),
    instanceConfiguration: z
      .object({
        /** Extra data disk in GB. The field name is the provider's, typo included. */
        extraDataDiskSizeDB: SizeGBSchema.optional(),
        enableCommonData: z.boolean(),
        enableDocker: z.boolean(),
        dockerStorageSize: SizeGBSchema.optional(),
        initScript: z.string().max(MAX_INIT_SCRIPT_LENGTH)
      })
      .strict(),
    isSpotInstance: z.boolean().optional(),
    nodePorts: z.array(z.number().int().min(MIN_PORT).max(MAX_PORT)).max(MAX_LIST_LENGTH)
  })
  .strict()
  // The spec's one cross-field rule: hourly modes are created with duration 1.
  .refine((request) => !HOURLY_CHARGE_MODES.includes(request.billing.chargeMode) || request.billing.duration === 1, {
    message: 'Hourly billing runs for 1 period.',
    path: ['billing', 'duration']
  })

export type CreateInstanceRequest = z.infer<typeof CreateInstanceRequestSchema>
export type RemoteStorageRequest = z.infer<typeof RemoteStorageRequestSchema>

/** The request's top-level fields, in the spec's order. */
export const CREATE_REQUEST_FIELDS = Object.keys(CreateInstanceRequestSchema.shape) as (keyof CreateInstanceRequest)[]
