/**
 * What a person waits for (an instance ready, failed, stopped by someone else or stuck; the
 * balance running low) comes from main as a `notification`. In Electron the desktop shows it;
 * the web shell has no desktop notifications, so there it is a toast. Every other status change
 * is shown in place (the list, the badges), never as a toast of its own.
 */
import type { AppNotification } from '../../../shared/contract'
import { on } from './bridge'
import { toasts, type ToastTone } from './toasts.svelte'

const TONES: Record<AppNotification['kind'], ToastTone> = {
  ready: 'success',
  failed: 'error',
  stuck: 'warning',
  'low-balance': 'warning',
  stopped: 'info',
  released: 'info',
  summary: 'info',
  expiring: 'warning'
}

/** `toastHere`: whether this window shows notifications itself (the web shell). */
export function listenForAnnouncements(toastHere: () => boolean): () => void {
  return on('notification', (notification) => {
    // The session store warns of an ending session itself (it owns the re-login).
    if (notification.kind === 'expiring' || !toastHere()) return
    // A stuck start and a low balance ask for something to be done: they stay until dismissed.
    const sticky = notification.kind === 'stuck' || notification.kind === 'low-balance'
    toasts.show(TONES[notification.kind], notification.title, notification.body, { sticky })
  })
}
