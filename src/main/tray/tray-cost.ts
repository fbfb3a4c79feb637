/**
 * The cost guard in the tray, as menu data (tray-model.ts places it): the burn rate as the menu's
 * first line and in the tooltip (and, on macOS when asked for, as the title beside the icon), a
 * "Keep … running" item for each countdown so every desktop can answer one from the tray, and
 * per instance its price, GPU activity and rules. Pure. Figures that change every minute (cost
 * so far, uptime) stay in the window, so the menu is not rebuilt each minute for them.
 */
import type { TrayMenuItem } from '../../shared/contract'
import type { CostSnapshot, GuardInstance } from '../../shared/contract-cost'
import { burnWords, formatClockTime, formatMoment, formatRate, gpuSummary, planWords } from '../../shared/cost-words'
import { formatDollars } from '../../shared/money'
import { cutText } from '../../shared/untrusted-text'

/** The menu's first line (src/shared/cost-words.ts, as `cloud-tray cost` says it too). */
export const burnLine = burnWords

/** The tooltip's cost part: "$24.40/h". */
export function burnTooltip(cost: CostSnapshot | undefined): string | undefined {
  return cost && cost.billedCount > 0 ? formatRate(cost.burnRatePerHour) : undefined
}

/** macOS menu bar title when the user enabled it: "$24.40/h" while something is billed. */
export function burnTitle(cost: CostSnapshot | undefined, enabled: boolean): string | undefined {
  return enabled ? burnTooltip(cost) : undefined
}

/** One item per countdown: "Keep «train» running (stops at 14:05)". */
export function countdownItems(cost: CostSnapshot | undefined, signedIn: boolean): TrayMenuItem[] {
  return (cost?.instances ?? [])
    .filter((entry) => entry.countdown)
    .map((entry) => ({
      id: `instance:${entry.instanceId}:keep-running`,
      label: `Keep «${entry.name}» running (stops at ${formatClockTime(entry.countdown!.endsAt)})`,
      enabled: signedIn,
      type: 'normal' as const
    }))
}

/**
 * Lines at the top of an instance's submenu: price, GPUs, the rule that would stop it. `now`: the
 * snapshot's time, from which a plan's end says its day when it is not today.
 */
export function instanceCostLines(entry: GuardInstance | undefined, now: number): TrayMenuItem[] {
  if (!entry) return []
  const id = entry.instanceId
  const line = (key: string, label: string): TrayMenuItem => ({ id: `instance:${id}:${key}`, label, enabled: false, type: 'normal' })
  const { meter } = entry
  const lines: TrayMenuItem[] = []
  const price = meter.plan
    ? `${formatDollars(meter.plan.committed)} ${planWords(meter.chargeMode, meter.plan.periods)}${meter.plan.endsAt ? `, ends ${formatMoment(meter.plan.endsAt, now)}` : ''}`
    : meter.hourlyRate > 0
      ? formatRate(meter.hourlyRate)
      : `${formatDollars(meter.price)} per ${meter.chargeMode}`
  lines.push(line('price', price))
  const latest = entry.gpu.state === 'off' ? undefined : entry.gpu.latest
  if (entry.gpu.state === 'probing' && latest && latest.missed === undefined) lines.push(line('gpu', gpuSummary(latest.gpus)))
  else if (entry.gpu.state === 'unavailable')
    lines.push(line('gpu', `GPU activity unavailable: ${cutText(entry.gpu.reason.replace(/\.$/, ''), 80)}`))
  const stopRule = entry.ruleWords.find((words) => words.startsWith('auto-stops'))
  if (stopRule) lines.push(line('rule', stopRule.charAt(0).toUpperCase() + stopRule.slice(1)))
  lines.push({ id: `instance:${id}:sep-cost`, label: '', enabled: false, type: 'separator' })
  return lines
}
