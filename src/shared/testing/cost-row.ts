/**
 * One billed instance as the cost guard shows it (contract-cost.ts), for the tray's and the
 * window's tests: billed per hour at `hourlyRate` since 0, no rules, its GPUs not read; a test
 * changes what it looks at.
 */
import type { GuardInstance } from '../contract-cost'
import { NO_RULES } from '../guard-rules'

export function costRow(over: Partial<GuardInstance> = {}, hourlyRate = 2): GuardInstance {
  return {
    instanceId: 'a',
    name: 'train',
    meter: {
      price: hourlyRate,
      unit: '$',
      chargeMode: 'perHour',
      hourlyRate,
      runStartedAt: 0,
      runStartSource: 'created',
      uptimeMs: 0,
      costSoFar: 0
    },
    rules: NO_RULES,
    ruleWords: [],
    gpu: { state: 'off' },
    ...over
  }
}
