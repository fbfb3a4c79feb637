/**
 * Text that leaves the app for the OS (tray labels and tooltip, notification titles and bodies,
 * notebook window titles) carries server strings such as instance names. The OS draws it with
 * no escaping of ours in between, so invisible format characters are neutralised here, once,
 * for every such text: bidirectional embeddings, overrides and isolates (U+202A–202E,
 * U+2066–2069) and the direction marks (U+200E, U+200F, U+061C) could make «gpu-box‮txt.exe»
 * read as something else; zero-width and other invisible format characters (Unicode category
 * Cf) hide what a name really is. Each becomes a visible U+FFFD �, so the user sees that a name
 * holds something odd. Control characters (line breaks, tabs, escapes) become a space, except
 * line breaks in notification bodies, which the app itself uses. ZWJ and ZWNJ (U+200C, U+200D)
 * are kept: scripts and emoji need them, and they cannot reorder text.
 */
import type { AppNotification, TrayMenuItem, TrayModel } from '../shared/contract'
import { SHOWN_FOR_INVISIBLE, visibleLines, visibleText } from '../shared/untrusted-text'
import type { NotebookWindowRequest, Platform } from './core-types'

// The rule itself is shared with every other place that shows server text (untrusted-text.ts).
export { SHOWN_FOR_INVISIBLE }

/** One line of text for the OS: no invisible format characters, no control characters. */
export const osText = visibleText

/** Like osText, but keeps `\n` (a notification body may have several lines). */
export const osTextLines = visibleLines

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
