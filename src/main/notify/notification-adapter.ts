/**
 * Desktop notifications through Electron. A click calls back with the notification (the core
 * opens the window at its instance, or a watch's review); a button (the cost guard's "Keep
 * running", "Stop now"; the stock watch's "Launch now", "Dismiss"; a reclaim's "Relaunch like
 * this one") calls back with its id.
 *
 * - macOS: buttons need a signed app with the alert style (electron-builder.yml's extendInfo);
 *   the Notification object's own `click` and `action` events answer. A shown notification is
 *   kept referenced until it is done (clicked, closed or failed), as an unreferenced one can be
 *   garbage-collected and lose its handler.
 * - Windows: buttons too (Electron 45's toasts have them). Every activation — a click on the
 *   toast, on a button, or later in the Action Center after the toast timed out and its object
 *   is gone, or after a restart — comes through `Notification.handleActivation`, registered once,
 *   which names the toast by its `tag` (our id). The object's own events are not used there, as
 *   both would fire.
 * - Linux: a click only; the window, opened at the instance, shows the same choices.
 */
import { Notification } from 'electron'
import type { AppNotification, NotificationAction } from '../../shared/contract'

export interface NotificationAdapter {
  show(notification: AppNotification): void
  /** Notifications shown and not yet done (for tests). */
  held(): number
}

/** Toasts remembered for Action Center clicks after their object is gone: the latest ones. */
const REMEMBERED = 100

/** A toast's tag is at most 64 characters on Windows. */
export const toastId = (notification: AppNotification): string => notification.id.slice(0, 64)

/** `type=action&action=1&tag=<id>` (Electron's toast arguments) → its parts. */
export function activationParts(args: string): { type?: string; action?: number; tag?: string } {
  const parts = new Map(
    args
      .split('&')
      .map((pair) => pair.split('='))
      .filter((kv): kv is [string, string] => kv.length === 2)
  )
  const action = Number(parts.get('action'))
  return {
    ...(parts.get('type') ? { type: parts.get('type')! } : {}),
    ...(Number.isInteger(action) ? { action } : {}),
    ...(parts.get('tag') ? { tag: decodeURIComponent(parts.get('tag')!) } : {})
  }
}

export function createNotificationAdapter(
  onClick: (notification: AppNotification) => void,
  onAction: (notification: AppNotification, action: NotificationAction['id']) => void = () => {},
  platform: NodeJS.Platform = process.platform
): NotificationAdapter {
  const live = new Set<Notification>()
  const withButtons = platform === 'darwin' || platform === 'win32'
  const recent = new Map<string, AppNotification>()
  if (platform === 'win32') {
    Notification.handleActivation((details) => {
      const parts = activationParts(details.arguments ?? '')
      const shown = parts.tag !== undefined ? recent.get(parts.tag) : undefined
      const index = details.actionIndex ?? parts.action
      if (details.type === 'action' && shown && index !== undefined) {
        const action = shown.actions?.[index]
        if (action) return onAction(shown, action.id)
      }
      // A toast from before a restart, or one forgotten since: the window, at its list.
      onClick(shown ?? { id: parts.tag ?? 'toast', kind: 'summary', title: '', body: '' })
    })
  }
  return {
    show(notification) {
      if (!Notification.isSupported()) return
      const buttons = withButtons ? (notification.actions ?? []) : []
      const id = toastId(notification)
      const shown = new Notification({
        id,
        title: notification.title,
        body: notification.body,
        silent: false,
        ...(buttons.length > 0 ? { actions: buttons.map((action) => ({ type: 'button' as const, text: action.label })) } : {})
      })
      if (platform === 'win32') {
        recent.delete(id)
        recent.set(id, notification)
        if (recent.size > REMEMBERED) recent.delete(recent.keys().next().value!)
        shown.show()
        return
      }
      live.add(shown)
      const release = (): void => {
        live.delete(shown)
        shown.removeAllListeners()
      }
      shown.on('click', () => {
        release()
        onClick(notification)
      })
      // Electron 45 puts the index on the event (the positional argument is deprecated).
      shown.on('action', (event, positional: number) => {
        const index = (event as { actionIndex?: number }).actionIndex ?? positional
        const action = buttons[index]
        release()
        if (action) onAction(notification, action.id)
      })
      shown.on('close', release)
      shown.on('failed', release)
      shown.show()
    },
    held: () => live.size
  }
}
