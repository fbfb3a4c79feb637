/**
 * After a sign-in, the window's saved terminal tabs come back (terminals.svelte.ts restore). The
 * tab that was active connects at once if its instance runs; the others wait to be shown. What
 * cannot connect now is said once, with a way to close it: another account's tabs (nothing
 * connects across accounts), tabs on instances that are not running, or are gone.
 */
import type { Instance } from '../../../shared/api'
import { isRunning } from '../../../shared/instance-rules'
import { statusWords } from '../../../shared/status-words'
import { instances } from '../instances/instances.svelte'
import { toasts } from '../lib/toasts.svelte'
import type { TerminalTab } from './terminal-tab.svelte'
import { terminals } from './terminals.svelte'

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`

export async function restoreTerminalTabs(): Promise<void> {
  const running = (instanceId: string): boolean => {
    const found = instances.byId.get(instanceId)
    return found !== undefined && isRunning(found)
  }
  const restored = await terminals.restore(running)
  if (!restored) return
  const others = terminals.otherAccountTabs
  if (others.length > 0) {
    const owners = [...new Set(others.map((tab) => tab.account))].join(', ')
    toasts.show(
      'info',
      `${plural(others.length, 'terminal tab', 'terminal tabs')} of another account`,
      `They belong to ${owners} and stay closed: Cloud Tray never connects across accounts.`,
      { actions: [{ label: 'Forget them', run: () => terminals.forget(others) }] }
    )
  }
  const byInstance = new Map<string, TerminalTab[]>()
  for (const tab of Object.values(terminals.tabs).flat()) {
    if (running(tab.instanceId)) continue
    byInstance.set(tab.instanceId, [...(byInstance.get(tab.instanceId) ?? []), tab])
  }
  for (const [instanceId, tabs] of byInstance) {
    const instance: Instance | undefined = instances.byId.get(instanceId)
    const count = plural(tabs.length, 'terminal tab', 'terminal tabs')
    const title = instance
      ? `${instance.instanceSpecInfo.name} is ${statusWords(instance.instanceRuntimeInfo.status)}`
      : `${tabs[0]!.title}: the instance is gone`
    const body = instance
      ? tabs.length === 1
        ? 'Its terminal tab connects when it runs again.'
        : `Its ${count} connect when it runs again.`
      : `It is no longer in your list (it was deleted), so its ${count} cannot connect again.`
    toasts.show(instance ? 'info' : 'warning', title, body, {
      actions: [{ label: tabs.length === 1 ? 'Close it' : 'Close them', run: () => tabs.forEach((tab) => terminals.closeTab(tab)) }]
    })
  }
}
