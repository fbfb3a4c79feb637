/**
 * The GPUs of emulated instances: what `nvidia-smi` inside an instance reports. Every GPU of a
 * running instance is idle (0 %, no memory used) until `POST /__emulator/gpu` (or
 * `control.setGpu`) says otherwise; a stop ends whatever ran on them. The values become files in
 * the instance's own bin folder (reach/gpu-files.ts): a CSV query answer and the plain table.
 */
import type { CatalogInstanceType } from './catalog'
import { FieldError, isObject, optional, requireArray, requireInteger, type Body } from './fields'

export interface GpuSetting {
  utilization: number
  memoryUsedMiB: number
  memoryTotalMiB: number
}

export interface EmuGpu extends GpuSetting {
  index: number
  name: string
  uuid: string
}

/** At most this many GPUs per instance (the largest real nodes have 8; some 16). */
export const MAX_GPUS = 16
const MAX_MIB = 16 * 1024 * 1024

/** Memory of one GPU from its type's name ("NVIDIA H100 80GB HBM3" → 80 × 1024 MiB); 24 GiB when it does not say. */
export function memoryOfType(gpuType: string): number {
  const gigabytes = /(\d+)\s*GB/i.exec(gpuType)?.[1]
  return (gigabytes ? Number(gigabytes) : 24) * 1024
}

export class GpuBoard {
  private readonly settings = new Map<string, GpuSetting[]>()

  /** The instance's GPUs now: as set, else its type's, idle. */
  gpusOf(instanceId: string, instanceType: CatalogInstanceType): EmuGpu[] {
    const name = instanceType.gpu.type || 'NVIDIA GPU'
    const count = Math.max(0, Math.min(MAX_GPUS, Math.floor(instanceType.gpu.amount)))
    const set = this.settings.get(instanceId)
    const idle: GpuSetting = { utilization: 0, memoryUsedMiB: 0, memoryTotalMiB: memoryOfType(name) }
    return Array.from({ length: set?.length ?? count }, (_unused, index) => ({
      index,
      name,
      uuid: `GPU-${uuidPart(instanceId, index)}`,
      ...(set?.[index] ?? idle)
    }))
  }

  set(instanceId: string, gpus: GpuSetting[]): void {
    this.settings.set(
      instanceId,
      gpus.map((gpu) => ({ ...gpu }))
    )
  }

  /** The instance stopped: what ran on its GPUs is gone. */
  clear(instanceId: string): void {
    this.settings.delete(instanceId)
  }
}

/**
 * `POST /__emulator/gpu`'s body: `{instanceId, utilization, memoryUsedMiB, memoryTotalMiB, gpus?}`.
 * Without `gpus`, every GPU of the instance (`count` of them) gets the top-level values; with
 * `gpus` (an array of the same three fields), one entry per GPU and the count follows it.
 * `memoryTotalMiB` may be left out (the type's own size is kept).
 */
export function readGpuSetting(body: Body, count: number, typeTotalMiB: number): GpuSetting[] {
  const one = (fields: Body, path: string): GpuSetting => {
    const utilization = requireInteger(fields, 'utilization', `${path}utilization`, { min: 0, max: 100 })
    const memoryTotalMiB = optional(fields, 'memoryTotalMiB', typeTotalMiB, () =>
      requireInteger(fields, 'memoryTotalMiB', `${path}memoryTotalMiB`, { min: 1, max: MAX_MIB })
    )
    const memoryUsedMiB = optional(fields, 'memoryUsedMiB', 0, () =>
      requireInteger(fields, 'memoryUsedMiB', `${path}memoryUsedMiB`, { min: 0, max: memoryTotalMiB })
    )
    return { utilization, memoryUsedMiB, memoryTotalMiB }
  }
  const listed = optional<unknown[] | undefined>(body, 'gpus', undefined, () => requireArray(body, 'gpus'))
  if (listed === undefined) {
    if (count === 0) throw new FieldError('instanceId', 'field "instanceId" names an instance type without GPUs')
    return Array.from({ length: count }, () => one(body, ''))
  }
  if (listed.length === 0 || listed.length > MAX_GPUS) throw new FieldError('gpus', `field "gpus" must list 1 to ${MAX_GPUS} GPUs`)
  return listed.map((entry, index) => {
    if (!isObject(entry)) throw new FieldError(`gpus.${index}`, `field "gpus.${index}" must be an object`)
    return one(entry, `gpus.${index}.`)
  })
}

/** Stable per instance and GPU, shaped like NVIDIA's GPU UUIDs. */
function uuidPart(instanceId: string, index: number): string {
  let hash = 2166136261
  for (const char of `${instanceId}#${index}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0
  const hex = (hash.toString(16).padStart(8, '0') + ((hash ^ 0x5bd1e995) >>> 0).toString(16).padStart(8, '0')).repeat(2)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

// ------------------------------------------------------------------ what nvidia-smi prints

/** The fields the emulated `nvidia-smi --query-gpu=…` knows, with their units (for csv headers). */
export const QUERY_FIELDS: readonly { name: string; unit: string; value: (gpu: EmuGpu) => string }[] = [
  { name: 'index', unit: '', value: (gpu) => String(gpu.index) },
  { name: 'name', unit: '', value: (gpu) => gpu.name },
  { name: 'uuid', unit: '', value: (gpu) => gpu.uuid },
  { name: 'utilization.gpu', unit: '%', value: (gpu) => String(gpu.utilization) },
  { name: 'memory.used', unit: 'MiB', value: (gpu) => String(gpu.memoryUsedMiB) },
  { name: 'memory.total', unit: 'MiB', value: (gpu) => String(gpu.memoryTotalMiB) },
  { name: 'memory.free', unit: 'MiB', value: (gpu) => String(gpu.memoryTotalMiB - gpu.memoryUsedMiB) },
  { name: 'temperature.gpu', unit: '', value: (gpu) => String(temperature(gpu)) },
  { name: 'power.draw', unit: 'W', value: (gpu) => power(gpu).toFixed(2) }
]

/** The data file the script reads: a `name:unit` header, then one tab-separated line per GPU. */
export function gpuTable(gpus: readonly EmuGpu[]): string {
  const header = QUERY_FIELDS.map((field) => `${field.name}:${field.unit}`).join('\t')
  // Tabs and newlines in a catalog's GPU name would break the columns.
  const rows = gpus.map((gpu) => QUERY_FIELDS.map((field) => field.value(gpu).replace(/[\t\r\n]/g, ' ')).join('\t'))
  return [header, ...rows].join('\n') + '\n'
}

/** The answer to the app's query (`utilization.gpu,memory.used,memory.total`, csv, noheader, nounits). */
export function appQueryAnswer(gpus: readonly EmuGpu[]): string {
  return gpus.map((gpu) => `${gpu.utilization}, ${gpu.memoryUsedMiB}, ${gpu.memoryTotalMiB}`).join('\n') + (gpus.length > 0 ? '\n' : '')
}

const temperature = (gpu: GpuSetting): number => Math.round(30 + gpu.utilization * 0.45)
const POWER_CAP_W = 700
const power = (gpu: GpuSetting): number => 70 + (gpu.utilization / 100) * (POWER_CAP_W - 100)

const WIDTH = 89
const border = (mark: string, cells: number[]): string => `+${cells.map((n) => mark.repeat(n)).join('+')}+`
const row = (cells: string[], widths: number[]): string =>
  `|${cells.map((cell, i) => cell.slice(0, widths[i]).padEnd(widths[i]!)).join('|')}|`

/** Plain `nvidia-smi`: the table people know, in its usual columns. */
export function nvidiaSmiTable(gpus: readonly EmuGpu[]): string {
  if (gpus.length === 0) return 'No devices were found\n'
  const cells = [41, 24, 22]
  const lines: string[] = [
    border('-', [WIDTH]),
    row([' NVIDIA-SMI 550.54.15 (Cloud Tray emulator)   Driver Version: 550.54.15   CUDA Version: 12.4'], [WIDTH]),
    `|${cells.map((n) => '-'.repeat(n)).join('+')}|`,
    row([' GPU  Name                 Persistence-M ', ' Bus-Id          Disp.A ', ' Volatile Uncorr. ECC '], cells),
    row([' Fan  Temp   Perf          Pwr:Usage/Cap ', '           Memory-Usage ', ' GPU-Util  Compute M. '], cells),
    row(['', '', '               MIG M. '], cells),
    `|${cells.map((n) => '='.repeat(n)).join('+')}|`
  ]
  for (const gpu of gpus) {
    const bus = `00000000:${(0x18 + gpu.index * 0x10).toString(16).toUpperCase().padStart(2, '0')}:00.0`
    const left = ` N/A  ${String(temperature(gpu)).padStart(3)}C    ${gpu.utilization > 0 ? 'P0' : 'P8'}`
    const watts = `${String(Math.round(power(gpu))).padStart(4)}W / ${String(POWER_CAP_W).padStart(4)}W `
    lines.push(
      row([`${String(gpu.index).padStart(4)}  ${gpu.name.slice(0, 29).padEnd(29)}  On  `, `   ${bus} Off `, `${'0'.padStart(21)} `], cells)
    )
    lines.push(
      row(
        [
          left + watts.padStart(41 - left.length),
          `${gpu.memoryUsedMiB}MiB / ${gpu.memoryTotalMiB}MiB `.padStart(24),
          `${`${gpu.utilization}%`.padStart(8)}      Default `
        ],
        cells
      )
    )
    lines.push(row(['', '', 'Disabled '.padStart(22)], cells))
    lines.push(border('-', cells))
  }
  lines.push(' '.repeat(WIDTH + 2).trimEnd(), border('-', [WIDTH]), row([' Processes:'], [WIDTH]))
  lines.push(row(['  GPU   GI   CI        PID   Type   Process name                              GPU Memory '], [WIDTH]))
  lines.push(row(['        ID   ID                                                               Usage      '], [WIDTH]))
  lines.push(`|${'='.repeat(WIDTH)}|`)
  const busy = gpus.filter((gpu) => gpu.utilization > 0 || gpu.memoryUsedMiB > 0)
  if (busy.length === 0) lines.push(row(['  No running processes found'], [WIDTH]))
  for (const gpu of busy) {
    const pid = String(4000 + gpu.index * 17)
    lines.push(
      row(
        [
          `  ${String(gpu.index).padStart(3)}   N/A  N/A  ${pid.padStart(9)}      C   ${'python'.padEnd(40)}${`${gpu.memoryUsedMiB}MiB`.padStart(11)} `
        ],
        [WIDTH]
      )
    )
  }
  lines.push(border('-', [WIDTH]))
  return lines.join('\n') + '\n'
}
