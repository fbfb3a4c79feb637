/**
 * What the emulated cloud offers: regions, instance types (with a price per charge mode, stock
 * per region, spot capacity as types of their own) and images. `--catalog FILE` replaces the
 * default with a JSON file of the same shape, parsed by CatalogSchema so a typo fails at
 * start-up with the path of the bad field, not at create time. The real service's launch-form
 * feed (POST /resource/user/instance/list) is rendered from it by catalog-feed.ts.
 */
import { z } from 'zod'
import { CHARGE_MODES, type ChargeMode } from '../shared/api'

const AmountSchema = z.object({ amount: z.number().nonnegative(), type: z.string(), unit: z.string() })

export const CatalogRegionSchema = z.object({
  /** A uuid: what create's `region` field names. */
  regionId: z.string().min(1),
  name: z.string(),
  /** Short machine name of the region, e.g. "us-west-1". */
  value: z.string(),
  location: z.string(),
  /** Notebook host; replaced by the emulator's own notebook host when reach is on. */
  domain: z.string(),
  /** SSH host; replaced by the emulator's loopback address when reach is on. */
  sshAddress: z.string()
})

/**
 * Unit price per charge mode. A mode left out is not offered for the type; `null` is what the
 * real feed sometimes sends for a price: the mode is listed, its price unknown, and create
 * refuses it like a mode left out (the emulator cannot bill what it cannot price).
 */
const PricesSchema = z
  .object(
    Object.fromEntries(CHARGE_MODES.map((mode) => [mode, z.number().nonnegative().nullable().optional()])) as Record<
      ChargeMode,
      z.ZodOptional<z.ZodNullable<z.ZodNumber>>
    >
  )
  .strict()

export const CatalogInstanceTypeSchema = z.object({
  instanceTypeId: z.string().min(1),
  instanceTypeName: z.string(),
  cpu: AmountSchema,
  memory: AmountSchema,
  gpu: AmountSchema,
  disk: AmountSchema,
  /** Unit price in dollars for each charge mode (per hour, per day, ...). */
  prices: PricesSchema,
  /**
   * The GPU family the launch form groups types by, named as the real feed does
   * (`<CARD>-<FORM>-<MEM>GB[-SPOT]`); empty for CPU-only types.
   */
  gpuName: z.string().default(''),
  /** Spot capacity: its own type, cheaper, and every instance of it is a spot instance. */
  spot: z.boolean().default(false),
  /** Region ids where this type is out of stock: create there is refused, the feed says OutOfStock. */
  outOfStockIn: z.array(z.string()).default([])
})

export const CatalogImageSchema = z.object({
  imageId: z.string().min(1),
  name: z.string(),
  architecture: z.string(),
  isPublic: z.string(),
  tags: z.array(z.string()).nullable(),
  type: z.string(),
  /** Root disk the image fills, GB: shown as rootDiskUsedGi of a fresh instance. */
  sizeGi: z.number().nonnegative().default(20),
  /**
   * An image whose pull never succeeds: its instances stay `Starting` in the download phase with
   * diagnosisReason `BackOff`, as the real service leaves an image it cannot pull (never failing).
   */
  neverPulls: z.boolean().default(false)
})

export const CatalogSchema = z
  .object({
    regions: z.array(CatalogRegionSchema).min(1),
    instanceTypes: z.array(CatalogInstanceTypeSchema).min(1),
    images: z.array(CatalogImageSchema).min(1)
  })
  .superRefine((catalog, ctx) => {
    const unique = (key: 'regions' | 'instanceTypes' | 'images', ids: string[]): void => {
      const seen = new Set<string>()
      ids.forEach((id, index) => {
        if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [key, index], message: `duplicate id "${id}"` })
        seen.add(id)
      })
    }
    unique(
      'regions',
      catalog.regions.map((r) => r.regionId)
    )
    unique(
      'instanceTypes',
      catalog.instanceTypes.map((t) => t.instanceTypeId)
    )
    unique(
      'images',
      catalog.images.map((i) => i.imageId)
    )
  })

export type Catalog = z.infer<typeof CatalogSchema>
export type CatalogRegion = z.infer<typeof CatalogRegionSchema>
export type CatalogInstanceType = z.infer<typeof CatalogInstanceTypeSchema>
export type CatalogImage = z.infer<typeof CatalogImageSchema>

/** The unit price of a type in a charge mode; undefined when the mode is not offered or its price is unknown. */
export function priceIn(type: CatalogInstanceType, mode: ChargeMode): number | undefined {
  const price = type.prices[mode]
  return typeof price === 'number' ? price : undefined
}

/** Parses a catalog file's text; throws an Error whose message names the file's bad field. */
export function parseCatalog(text: string, source = 'catalog'): Catalog {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new Error(`${source} is not valid JSON: ${(error as Error).message}`, { cause: error })
  }
  const parsed = CatalogSchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(top level)'
    throw new Error(`${source}: ${where}: ${issue?.message ?? 'invalid'}`)
  }
  return parsed.data
}

interface TypeExtras {
  gpuName: string
  spot?: boolean
  outOfStockIn?: string[]
  /** Prices to replace (a number), mark unknown (null) or leave out (undefined) after the defaults. */
  prices?: Partial<Record<ChargeMode, number | null | undefined>>
}

function gpuType(
  instanceTypeId: string,
  instanceTypeName: string,
  gpu: { count: number; model: string },
  cpuCores: number,
  memoryGB: number,
  diskGB: number,
  perHour: number,
  extras: TypeExtras
): CatalogInstanceType {
  // Longer commitments are cheaper per hour; "tide" is the off-peak hourly rate.
  const prices: CatalogInstanceType['prices'] = {
    perHour: round2(perHour),
    tidePerHour: round2(perHour * 0.7),
    perDay: round2(perHour * 24 * 0.9),
    perWeek: round2(perHour * 24 * 7 * 0.8),
    perMonth: round2(perHour * 24 * 30 * 0.7)
  }
  for (const [mode, price] of Object.entries(extras.prices ?? {}) as [ChargeMode, number | null | undefined][]) {
    if (price === undefined) delete prices[mode]
    else prices[mode] = price
  }
  return {
    instanceTypeId,
    instanceTypeName,
    cpu: { amount: cpuCores, type: 'Intel Xeon Platinum 8480+', unit: 'Core' },
    memory: { amount: memoryGB, type: 'DDR5', unit: 'GB' },
    gpu: { amount: gpu.count, type: gpu.model, unit: gpu.count > 0 ? 'GPU' : '' },
    disk: { amount: diskGB, type: 'NVMe SSD', unit: 'GB' },
    prices,
    gpuName: extras.gpuName,
    spot: extras.spot ?? false,
    outOfStockIn: extras.outOfStockIn ?? []
  }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100
}

const US_WEST = '6f1c2a4e-8d3b-4c5a-9e7f-1a2b3c4d5e6f'
const SINGAPORE = '0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b'

/** The image id whose instances never get past pulling it (README: "a stuck start"). */
export const NEVER_PULLING_IMAGE_ID = 'img-private-unreachable'

/**
 * The default offering; README "The emulator" lists these ids. It plays what the real feed
 * shows: a type out of stock in one region, spot types of their own (`…-SPOT`), one price
 * entry left out (H200 has no tide rate) and one `null` (the 8-GPU H100 has no monthly price).
 */
export const DEFAULT_CATALOG: Catalog = {
  regions: [
    {
      regionId: US_WEST,
      name: 'US West (Oregon)',
      value: 'us-west-1',
      location: 'Oregon, US',
      domain: 'notebook-us-west-1.emulator.invalid',
      sshAddress: '127.0.0.1'
    },
    {
      regionId: SINGAPORE,
      name: 'Singapore',
      value: 'ap-southeast-1',
      location: 'Singapore',
      domain: 'notebook-ap-southeast-1.emulator.invalid',
      sshAddress: '127.0.0.1'
    },
    {
      regionId: 'c3d4e5f6-a7b8-4c9d-8e0f-123456789abc',
      name: 'EU Central (Frankfurt)',
      value: 'eu-central-1',
      location: 'Frankfurt, DE',
      domain: 'notebook-eu-central-1.emulator.invalid',
      sshAddress: '127.0.0.1'
    }
  ],
  instanceTypes: [
    gpuType('gpu-h100-sxm-1x', 'H100 SXM 80GB x1', { count: 1, model: 'NVIDIA H100 80GB HBM3' }, 24, 240, 500, 2.49, {
      gpuName: 'H100-SXM-80GB'
    }),
    gpuType('gpu-h100-sxm-8x', 'H100 SXM 80GB x8', { count: 8, model: 'NVIDIA H100 80GB HBM3' }, 192, 1920, 4000, 19.92, {
      gpuName: 'H100-SXM-80GB',
      outOfStockIn: [US_WEST],
      prices: { perMonth: null }
    }),
    gpuType('gpu-h200-sxm-1x', 'H200 SXM 141GB x1', { count: 1, model: 'NVIDIA H200 141GB HBM3e' }, 24, 256, 500, 3.49, {
      gpuName: 'H200-SXM-141GB',
      outOfStockIn: [SINGAPORE],
      prices: { tidePerHour: undefined }
    }),
    gpuType('gpu-a100-80g-1x', 'A100 80GB x1', { count: 1, model: 'NVIDIA A100 80GB PCIe' }, 16, 128, 300, 1.79, {
      gpuName: 'A100-PCIE-80GB'
    }),
    gpuType('gpu-rtx4090-1x', 'RTX 4090 24GB x1', { count: 1, model: 'NVIDIA GeForce RTX 4090' }, 12, 64, 200, 0.49, {
      gpuName: 'RTX-4090'
    }),
    // Spot capacity is a type of its own; hourly only, and it can be reclaimed (control: preempt).
    gpuType('gpu-h100-sxm-1x-spot', 'H100 SXM 80GB x1 (spot)', { count: 1, model: 'NVIDIA H100 80GB HBM3' }, 24, 240, 500, 1.25, {
      gpuName: 'H100-SXM-80GB-SPOT',
      spot: true,
      prices: { perDay: undefined, perWeek: undefined, perMonth: undefined }
    }),
    gpuType('gpu-rtx4090-1x-spot', 'RTX 4090 24GB x1 (spot)', { count: 1, model: 'NVIDIA GeForce RTX 4090' }, 12, 64, 200, 0.25, {
      gpuName: 'RTX-4090-SPOT',
      spot: true,
      prices: { perDay: undefined, perWeek: undefined, perMonth: undefined }
    }),
    gpuType('cpu-8c-32g', 'CPU 8 cores, 32 GB', { count: 0, model: '' }, 8, 32, 100, 0.24, { gpuName: '' })
  ],
  images: [
    {
      imageId: 'img-pytorch-2.5-cuda12.4',
      name: 'PyTorch 2.5.1 / CUDA 12.4 / Python 3.11',
      architecture: 'x86_64',
      isPublic: 'true',
      tags: ['pytorch', 'cuda12.4', 'jupyterlab'],
      type: 'public',
      sizeGi: 22,
      neverPulls: false
    },
    {
      imageId: 'img-pytorch-2.3-cuda12.1',
      name: 'PyTorch 2.3.1 / CUDA 12.1 / Python 3.10',
      architecture: 'x86_64',
      isPublic: 'true',
      tags: ['pytorch', 'cuda12.1', 'jupyterlab'],
      type: 'public',
      sizeGi: 20,
      neverPulls: false
    },
    {
      imageId: 'img-cuda-12.4-ubuntu22.04',
      name: 'CUDA 12.4 / cuDNN 9 / Ubuntu 22.04',
      architecture: 'x86_64',
      isPublic: 'true',
      tags: null,
      type: 'public',
      sizeGi: 12,
      neverPulls: false
    },
    {
      imageId: NEVER_PULLING_IMAGE_ID,
      name: 'Private image the cloud cannot pull (try a stuck start)',
      architecture: 'x86_64',
      isPublic: 'false',
      tags: null,
      type: 'private',
      sizeGi: 10,
      neverPulls: true
    }
  ]
}
