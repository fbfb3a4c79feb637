/**
 * Desktop notifications through Electron. A click calls back with the notification (the core
 * opens the window at its instance). A shown notification is kept referenced until it is done
 * (an unreferenced Notification can be garbage-collected and lose its click handler), and done
 * means clicked, closed or failed: Electron does not promise a `close` for every notification
 * (Windows' Action Center keeps them; a failed toast never shows), so waiting for it alone kept
 * them all for the app's lifetime.
 */
import { Notification } from 'electron'
import type { AppNotification } from '../../shared/contract'

export interface NotificationAdapter {
  show(notification: AppNotification): void
  /** Notifications shown and not yet done (for tests). */
  held(): number
}

export function createNotificationAdapter(onClick: (notification: AppNotification) => void): NotificationAdapter {
  const live = new Set<Notification>()
  return {
    show(notification) {
      if (!Notification.isSupported()) return
      const shown = new Notification({ title: notification.title, body: notification.body, silent: false })
      live.add(shown)
      const release = (): void => {
        live.delete(shown)
        shown.removeAllListeners()
      }
      shown.on('click', () => {
        release()
        onClick(notification)
      })
      shown.on('close', release)
      shown.on('failed', release)
      shown.show()
    },
    held: () => live.size
  }
}
