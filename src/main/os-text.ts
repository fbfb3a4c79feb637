/**
 * Text that leaves the app for the OS (tray labels and tooltip, notification titles and bodies,
 * notebook window titles) carries server strings such as instance names. The OS draws it with
 * no escaping of ours in between, so it goes through the one rule for such text
 * (src/shared/visible-text.ts), once, here. Line breaks are kept in notification bodies, which
 * the app itself uses.
 */
import type { AppNotification, TrayMenuItem, TrayModel } from '../shared/contract'
import type { NotebookWindowRequest, Platform } from './core-types'
import { SHOWN_FOR_INVISIBLE, visibleLines, visibleText } from '../shared/visible-text'

/** One line of text for the OS (the rule: src/shared/visible-text.ts). */
export const osText = visibleText
/** Like osText, but keeps `\n` (a notification body may have several lines). */
export const osTextLines = visibleLines
export { SHOWN_FOR_INVISIBLE }

export function osSafeNotification(notification: AppNotification): AppNotification {
  return { ...notification, title: osText(notification.title), body: osTextLines(notification.body) }
}

export function osSafeTrayModel(model: TrayModel): TrayModel {
  const items = (list: readonly TrayMenuItem[]): TrayMenuItem[] =>
    list.map((item) => ({ ...item, label: osText(item.label), ...(item.submenu ? { submenu: items(item.submenu) } : {}) }))
  return { ...model, tooltip: osText(model.tooltip), items: items(model.items) }
}

/** The Platform with every text it hands to the OS neutralised: the one place this happens. */
export function osSafePlatform(platform: Platform): Platform {
  // Everything else passes through as it is (a spread, so a new Platform member is never dropped).
  return {
    ...platform,
    showNotification: (notification) => platform.showNotification(osSafeNotification(notification)),
    setTray: (model) => platform.setTray(osSafeTrayModel(model)),
    openNotebook: (request: NotebookWindowRequest) => platform.openNotebook({ ...request, instanceName: osText(request.instanceName) })
  }
}
