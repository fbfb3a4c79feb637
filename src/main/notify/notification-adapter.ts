/**
 * Desktop notifications through Electron. A click calls back with the notification (the core
 * opens the window at its instance). A shown notification is kept referenced until it is done
 * (an unreferenced Notification can be garbage-collected and lose its click handler), and done
 * means clicked, closed or failed: Electron does not promise a `close` for every notification
 * (Windows' Action Center keeps them; a failed toast never shows), so waiting for it alone kept
 * them all for the app's lifetime.
 *
 * Buttons (the cost guard's "Keep running", "Stop now"; the stock watch's "Launch now",
 * "Dismiss"; a reclaim's "Relaunch like this one") are real only on macOS, where Electron
 * has `actions` (and only with the alert style the user may choose in System Settings); on every
 * desktop the click opens the window at the instance, which shows the same choices.
 */
import { Notification } from 'electron'
import type { AppNotification, NotificationAction } from '../../shared/contract'

export interface NotificationAdapter {
  show(notification: AppNotification): void
  /** Notifications shown and not yet done (for tests). */
  held(): number
}

export function createNotificationAdapter(
  onClick: (notification: AppNotification) => void,
  onAction: (notification: AppNotification, action: NotificationAction['id']) => void = () => {},
  platform: NodeJS.Platform = process.platform
): NotificationAdapter {
  const live = new Set<Notification>()
  return {
    show(notification) {
      if (!Notification.isSupported()) return
      const buttons = platform === 'darwin' ? (notification.actions ?? []) : []
      const shown = new Notification({
        title: notification.title,
        body: notification.body,
        silent: false,
        ...(buttons.length > 0 ? { actions: buttons.map((action) => ({ type: 'button' as const, text: action.label })) } : {})
      })
      live.add(shown)
      const release = (): void => {
        live.delete(shown)
        shown.removeAllListeners()
      }
      shown.on('click', () => {
        release()
        onClick(notification)
      })
      shown.on('action', (_event, index: number) => {
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
