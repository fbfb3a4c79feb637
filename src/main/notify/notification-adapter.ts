/**
 * Desktop notifications through Electron. A click calls back with the notification (the core
 * opens the window at its instance). Shown notifications are kept referenced until closed:
 * an unreferenced Notification can be garbage-collected and lose its click handler.
 */
import { Notification } from 'electron'
import type { AppNotification } from '../../shared/contract'

export interface NotificationAdapter {
  show(notification: AppNotification): void
}

export function createNotificationAdapter(onClick: (notification: AppNotification) => void): NotificationAdapter {
  const live = new Set<Notification>()
  return {
    show(notification) {
      if (!Notification.isSupported()) return
      const shown = new Notification({ title: notification.title, body: notification.body, silent: false })
      live.add(shown)
      shown.on('click', () => onClick(notification))
      shown.on('close', () => live.delete(shown))
      shown.show()
    }
  }
}
