/**
 * The cost guard (src/main/cost/cost-guard.ts): its snapshot, an instance's rules, "Keep
 * running", and what Quit offers to stop. Stops themselves go through `instances.stop`.
 */
import type { CostSnapshot, GuardRules, QuitOffer } from '../../shared/contract-cost'
import type { CommandGroup } from './dispatcher'

export interface CostServices {
  guard: {
    snapshot(): CostSnapshot
    setRules(instanceId: string, rules: GuardRules): CostSnapshot
    keepRunning(instanceId: string): CostSnapshot
    quitOffer(): QuitOffer | null
    stopAll(): Promise<{ stopped: string[]; failed: { instanceId: string; message: string }[] }>
  }
}

export function costCommands({
  guard
}: CostServices): CommandGroup<'cost.get' | 'cost.setRules' | 'cost.keepRunning' | 'cost.quitOffer' | 'cost.stopAll'> {
  return {
    handlers: {
      'cost.get': async () => guard.snapshot(),
      'cost.setRules': async ({ instanceId, rules }) => guard.setRules(instanceId, rules),
      'cost.keepRunning': async ({ instanceId }) => guard.keepRunning(instanceId),
      'cost.quitOffer': async () => guard.quitOffer(),
      'cost.stopAll': () => guard.stopAll()
    }
  }
}
