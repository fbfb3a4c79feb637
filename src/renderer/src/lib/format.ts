/**
 * How instances read in the list and the detail panel. Pure, so the wording is tested in Node.
 */
import type { ImageInfo, Instance, RegionInfo } from '../../../shared/api'
import type { Stock } from '../../../shared/catalog'
import { statusGroup } from '../../../shared/instance-rules'
import { formatDollars, hourlyRate } from '../../../shared/money'

export { formatBytes } from '../../../shared/format-bytes'
export { typeLabel } from '../../../shared/catalog'
export { chargeModeLabel } from '../../../shared/cost-words'

/** A Map, not a plain object: a server's chargeMode such as `constructor` must not find Object's own members. */
const CHARGE_MODE_UNITS: ReadonlyMap<string, string> = new Map([
  ['perHour', 'hour'],
  ['tidePerHour', 'hour (tide)'],
  ['perDay', 'day'],
  ['perWeek', 'week'],
  ['perMonth', 'month']
])

/**
 * A region as the app names it everywhere: by its short name (`us-west-1`), the name the launch
 * form's catalog and the console use, so the list, the details, the create form, its review and
 * the volumes say the same. `full` adds what else the instance says of it, for a title or the details.
 */
export function regionWords(region: Pick<RegionInfo, 'value' | 'name' | 'location' | 'regionId'>): { name: string; full: string } {
  const name = region.value.trim() || region.name.trim() || region.regionId
  const more = [region.name.trim(), region.location.trim()].filter(
    (part, index, all) => part && part !== name && all.indexOf(part) === index
  )
  return { name, full: more.length > 0 ? `${name} (${more.join(', ')})` : name }
}

/**
 * "PyTorch 2.5.1 · x86_64 · public": the image's name, architecture and kind, each once. The
 * cloud's `type` is often "public" and `isPublic` says so again; a private image says private.
 */
export function imageLine(image: ImageInfo): string {
  const kind = image.type.trim() || (image.isPublic === 'true' ? 'public' : image.isPublic === 'false' ? 'private' : '')
  const parts = [image.name.trim(), image.architecture.trim(), kind]
  if (image.isPublic === 'true' && kind.toLowerCase() !== 'public') parts.push('public')
  return parts.filter(Boolean).join(' · ')
}

/** "2 × A100 · 16 CPU · 128 GB", leaving out the GPU part for CPU-only types. */
export function formatInstanceType(instance: Instance): string {
  const { gpu, cpu, memory } = instance.instanceSpecInfo.instanceTypeInfo
  const parts: string[] = []
  if (gpu.amount > 0) parts.push(`${gpu.amount} × ${gpu.type || 'GPU'}`)
  parts.push(`${cpu.amount} CPU`)
  parts.push(`${memory.amount} ${memory.unit || 'GB'}`)
  return parts.join(' · ')
}

/** "$1.20 / hour · On-Demand", or "$8 / week × 3 · On-Demand" for subscriptions. */
export function formatBilling(instance: Instance): string {
  const billing = instance.instanceSpecInfo.instanceBillingInfo
  const unit = chargeModeUnit(billing.chargeMode)
  const price = `${billing.unit}${formatNumber(billing.price)}`
  const duration = billing.duration > 1 ? ` × ${billing.duration}` : ''
  return `${price} / ${unit}${duration} · ${billing.type}`
}

export function chargeModeUnit(mode: string): string {
  return CHARGE_MODE_UNITS.get(mode) ?? mode
}

export function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2)
}

/** "just now", "5 min", "3 h", "2 d": how long ago, compact for a list column. */
export function formatAge(createdAtMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.floor((nowMs - createdAtMs) / 1000))
  if (seconds < 60) return 'just now'
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return `${hours} h`
  return `${Math.floor(hours / 24)} d`
}

/** A timestamp for people: local date and time; "—" for the spec's 0 meaning "never". */
export function formatTime(ms: number | undefined): string {
  if (!ms) return '—'
  return new Date(ms).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit'
  })
}

/** "14:05" for lockouts and retries that happen soon. */
export function formatClock(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
}

/** "8 s", "3 min 20 s", "2 h 5 min": time left, rounded the way people say it. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000))
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return seconds % 60 === 0 || minutes >= 10 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`
  const hours = Math.floor(minutes / 60)
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`
}

export function stockLabel(stock: Stock): string {
  return stock === 'in-stock' ? 'In stock' : stock === 'out-of-stock' ? 'Out of stock' : 'Stock unknown'
}

/** "$2.49 / hour", or "price unknown" when the catalog does not say (never "free"). */
export function priceLabel(price: number | undefined, chargeMode: string): string {
  return price === undefined ? 'price unknown' : `${formatDollars(price)} / ${chargeModeUnit(chargeMode)}`
}

/** The list's GPU column: "1 × H100 80GB HBM3" (the vendor's name left out), or "CPU only". */
export function formatGpu(instance: Instance): string {
  const gpu = instance.instanceSpecInfo.instanceTypeInfo.gpu
  if (!(gpu.amount > 0)) return 'CPU only'
  const model = (gpu.type || 'GPU').replace(/^NVIDIA\s+/i, '').replace(/^GeForce\s+/i, '')
  return `${gpu.amount} × ${model}`
}

/** The list's price column: dollars per hour, a plan's price spread over its hours ("$2.49/h"). */
export function formatHourlyPrice(instance: Instance): string {
  const billing = instance.instanceSpecInfo.instanceBillingInfo
  const rate = hourlyRate(billing)
  if (rate <= 0) return '—'
  return `${billing.unit === '$' || !billing.unit ? formatDollars(rate) : `${billing.unit}${formatNumber(rate)}`}/h`
}

/** The list's uptime column: how long a live instance has existed; "—" once it has ended. */
export function formatUptime(instance: Instance, nowMs: number): string {
  if (statusGroup(instance.instanceRuntimeInfo.status) === 'ended') return '—'
  return formatAge(instance.instanceRuntimeInfo.createAtUnixMs, nowMs)
}
