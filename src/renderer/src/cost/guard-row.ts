/**
 * The cost guard in an instance row: a GPU cell (the busiest GPU now, with the details as its
 * title) and one line under the name (a countdown, else the rule that would stop it). Pure, so
 * the wording is tested in Node.
 */
import type { GuardInstance } from '../../../shared/contract-cost'
import { busiestLoad, formatClockTime, gpuSummary } from '../../../shared/cost-words'

export function gpuCell(entry: GuardInstance | undefined): { text: string; title: string } {
  if (!entry || entry.gpu.state === 'off') return { text: '—', title: 'GPUs are read while the instance runs.' }
  const latest = entry.gpu.latest
  if (entry.gpu.state === 'unavailable') return { text: '?', title: `GPU activity unavailable: ${entry.gpu.reason}` }
  if (!latest) return { text: '…', title: 'Reading its GPUs…' }
  const busiest = busiestLoad(latest.gpus)
  if (busiest === null) return { text: '?', title: gpuSummary(latest.gpus) }
  return { text: `${Math.round(busiest)} %`, title: gpuSummary(latest.gpus) }
}

export function guardLine(entry: GuardInstance | undefined): { text: string; urgent: boolean } | undefined {
  if (!entry) return undefined
  if (entry.countdown) return { text: `stops at ${formatClockTime(entry.countdown.endsAt)}`, urgent: true }
  const stopRule = entry.ruleWords.find((words) => words.startsWith('auto-stops'))
  return stopRule ? { text: stopRule, urgent: false } : undefined
}
