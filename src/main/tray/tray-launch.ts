/**
 * The tray's lines for getting the GPU (#26), pure like the rest of the menu: "Launch from
 * template" (two clicks to its review step), and each availability watch with what it waits for,
 * how it will launch, "Launch now…" once stock is there, and "Stop watching".
 */
import type { TrayMenuItem } from '../../shared/contract'
import type { LaunchTemplate, StockWatch } from '../../shared/contract-launch'
import { WATCH_STATE_WORDS, watchPlanWords } from '../../shared/launch-words'

export function watchItems(watches: readonly StockWatch[], signedIn: boolean): TrayMenuItem[] {
  if (watches.length === 0) return []
  const items: TrayMenuItem[] = [{ id: 'watches', label: `Waiting for stock (${watches.length})`, enabled: false, type: 'normal' }]
  for (const watch of watches) {
    const prefix = `watch:${watch.watchId}`
    const submenu: TrayMenuItem[] = [{ id: `${prefix}:plan`, label: watchPlanWords(watch), enabled: false, type: 'normal' }]
    if (watch.note) submenu.push({ id: `${prefix}:note`, label: watch.note, enabled: false, type: 'normal' })
    const actionable = watch.state === 'in-stock' || watch.state === 'needs-you'
    submenu.push(
      { id: `${prefix}:launch`, label: 'Launch now…', enabled: signedIn && actionable, type: 'normal' },
      { id: `${prefix}:cancel`, label: 'Stop watching', enabled: signedIn && watch.state !== 'launching', type: 'normal' }
    )
    items.push({ id: prefix, label: `${watch.label} — ${WATCH_STATE_WORDS[watch.state]}`, enabled: true, type: 'submenu', submenu })
  }
  return items
}

/** "Launch from template" with one item per template; nothing when there are none. */
export function templateItems(templates: readonly Pick<LaunchTemplate, 'templateId' | 'name'>[], signedIn: boolean): TrayMenuItem[] {
  if (templates.length === 0) return []
  return [
    {
      id: 'launch-template',
      label: 'Launch from template',
      enabled: signedIn,
      type: 'submenu',
      submenu: templates.map((template) => ({
        id: `template:${template.templateId}:launch`,
        label: `${template.name}…`,
        enabled: signedIn,
        type: 'normal' as const
      }))
    }
  ]
}
