/**
 * The cost guard's figures as people read them, the same in the tray, the notifications and the
 * window: "$24.40/h", "≈ 41 h left at $24.40/h", "3 h 12 min", "GPU 87 % · 40 of 80 GiB".
 */
import type { CostSnapshot, GpuReading } from './contract-cost'
import { highest, lowest } from './extremes'
import { formatDollars } from './money'

/** "$24.40/h". */
export function formatRate(perHour: number): string {
  return `${formatDollars(perHour)}/h`
}

/** "≈ $4.15" (every cost figure is an estimate). */
export function formatEstimate(dollars: number): string {
  return `≈ ${formatDollars(dollars)}`
}

/** "45 min", "3 h 12 min", "2 d 4 h": how long, to the minute. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000))
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`
  const days = Math.floor(hours / 24)
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`
}

/** "14:05" in local time. */
export function formatClockTime(ms: number): string {
  const date = new Date(ms)
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`
}

/**
 * Time left on an auto-stop countdown, "4:57" (minutes:seconds, rounded up): the one way the
 * banner and the details say it, so they never disagree ("less than a minute" beside "0:57").
 */
export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000))
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/**
 * A moment as a person reads it from `now`: "11:22" today, "tomorrow 11:22", else "Dec 17,
 * 11:22" (with the year when it is not this one). A time that is not today always says its day:
 * "ends 11:22" for a plan ending in three weeks read as today.
 */
export function formatMoment(ms: number, now: number): string {
  const time = formatClockTime(ms)
  const at = new Date(ms)
  const today = new Date(now)
  const sameDay = (a: Date, b: Date): boolean =>
    a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate()
  if (sameDay(at, today)) return time
  if (sameDay(at, new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1))) return `tomorrow ${time}`
  const year = at.getFullYear() === today.getFullYear() ? '' : ` ${at.getFullYear()}`
  return `${MONTHS[at.getMonth()]} ${at.getDate()}${year}, ${time}`
}

/** "≈ 41 h left", "≈ 3 d 2 h left", "≈ 20 min left"; "balance spent" at 0. */
export function runwayLeft(runway: { hours: number }): string {
  if (runway.hours <= 0) return 'balance spent'
  const left =
    runway.hours < 1
      ? `${Math.max(1, Math.floor(runway.hours * 60))} min`
      : runway.hours < 100
        ? `${Math.floor(runway.hours)} h`
        : formatDuration(runway.hours * 3_600_000)
  return `≈ ${left} left`
}

/** "≈ 41 h left at $24.40/h"; "≈ 3 d 2 h left…" for long ones; "balance spent" at 0. */
export function runwayWords(runway: { hours: number }, perHour: number): string {
  return `${runwayLeft(runway)} at ${formatRate(perHour)}`
}

/** "$24.40/h for 2 instances", or with a balance "≈ 41 h left at $24.40/h"; none when nothing is billed (the tray's first line). */
export function burnWords(cost: CostSnapshot | undefined): string | undefined {
  if (!cost || cost.billedCount === 0) return undefined
  if (cost.runway) return runwayWords(cost.runway, cost.burnRatePerHour)
  return `${formatRate(cost.burnRatePerHour)} for ${cost.billedCount} ${cost.billedCount === 1 ? 'instance' : 'instances'}`
}

const PLAN_PERIODS: ReadonlyMap<string, string> = new Map([
  ['perDay', 'day'],
  ['perWeek', 'week'],
  ['perMonth', 'month']
])

/** "1-day plan", "3-week plan"; the mode as given for one the app does not know. */
export function planWords(chargeMode: string, periods: number): string {
  const period = PLAN_PERIODS.get(chargeMode)
  return period ? `${periods}-${period} plan` : `${chargeMode} plan`
}

/** MiB → "40 GiB" (whole), "512 MiB" below 1 GiB; "?" for what is no amount. */
export function formatMiB(mib: number): string {
  if (!Number.isFinite(mib) || mib < 0) return '?'
  return mib >= 1024 ? `${Math.round(mib / 1024)} GiB` : `${Math.round(mib)} MiB`
}

/**
 * One line for the GPUs: "GPU 87 % · 40 of 80 GiB"; several: "8 GPUs 3–97 % · 310 of 640 GiB";
 * a value the GPU did not give is left out.
 */
export function gpuSummary(gpus: readonly GpuReading[]): string {
  if (gpus.length === 0) return 'no GPU readings'
  const loads = gpus.map((gpu) => gpu.utilization).filter((value): value is number => value !== null)
  const parts: string[] = []
  const label = gpus.length === 1 ? 'GPU' : `${gpus.length} GPUs`
  const low = lowest(loads)
  const high = highest(loads)
  if (low === undefined || high === undefined) parts.push(`${label} load unknown`)
  else parts.push(low === high ? `${label} ${Math.round(high)} %` : `${label} ${Math.round(low)}–${Math.round(high)} %`)
  const used = gpus.map((gpu) => gpu.memoryUsedMiB)
  const total = gpus.map((gpu) => gpu.memoryTotalMiB)
  if (used.every((value) => value !== null) && total.every((value) => value !== null)) {
    const sum = (values: (number | null)[]): number => values.reduce<number>((a, b) => a + (b ?? 0), 0)
    const [usedMiB, totalMiB] = [sum(used), sum(total)]
    // "40 of 80 GiB" reads better than repeating the unit, when both are in GiB.
    parts.push(
      Number.isFinite(usedMiB) && usedMiB >= 1024
        ? `${Math.round(usedMiB / 1024)} of ${formatMiB(totalMiB)}`
        : `${formatMiB(usedMiB)} of ${formatMiB(totalMiB)}`
    )
  }
  return parts.join(' · ')
}

/** A charge mode as the form and the notices name it: "Per hour", "Per week". */
export function chargeModeLabel(mode: string): string {
  switch (mode) {
    case 'perHour':
      return 'Per hour'
    case 'tidePerHour':
      return 'Per hour (tide, off-peak)'
    case 'perDay':
      return 'Per day'
    case 'perWeek':
      return 'Per week'
    case 'perMonth':
      return 'Per month'
    default:
      return mode
  }
}

/**
 * The busiest GPU's load, what the idle rule and the charts care about (every GPU must be quiet,
 * so the busiest one is what matters); null when no GPU gave one.
 */
export function busiestLoad(gpus: readonly GpuReading[]): number | null {
  return highest(gpus.flatMap((gpu) => (gpu.utilization === null ? [] : [gpu.utilization]))) ?? null
}
