/**
 * What a person waits for (an instance ready, failed, stopped by someone else or stuck; the
 * balance running low) is a desktop notification main raises. In Electron the desktop shows it;
 * the web shell has no desktop, so it hands it to the page (a web-shell event) and it is a toast
 * here (the cost guard's with their choices as buttons). Every other status change is shown in place (the list, the badges), never as a toast.
 */
import type { AppNotification } from '../../../shared/contract'
import { call, onWebShell } from '../lib/bridge'
import { cost, GUARD_KINDS, type GuardKind } from '../cost/cost.svelte'
import { availability } from '../launch/availability.svelte'
import { toasts, type ToastTone } from '../lib/toasts.svelte'

/** The availability watch's and a reclaim's carry theirs ("Launch now", "Relaunch like this one"): the availability store shows them. */
type LaunchKind = 'stock' | 'reclaimed'

const TONES: Record<Exclude<AppNotification['kind'], GuardKind | LaunchKind>, ToastTone> = {
  ready: 'success',
  failed: 'error',
  stuck: 'warning',
  'low-balance': 'warning',
  stopped: 'info',
  released: 'info',
  summary: 'info',
  expiring: 'warning',
  job: 'info'
}

/** Only the web shell sends these; in Electron this listens to nothing. */
export function listenForAnnouncements(): () => void {
  return onWebShell('notification', (notification) => {
    // The session store warns of an ending session itself (it owns the re-login).
    if (notification.kind === 'expiring') return
    // The cost guard's carry their choices ("Keep running", "Stop now"): the cost store shows them.
    if (isGuardKind(notification.kind)) return cost.announce(notification)
    // A job's end carries "Open": its terminal.
    if (notification.kind === 'job') {
      const jobId = notification.jobId
      const actions = jobId ? [{ label: 'Open', run: () => void call('jobs.open', { jobId }) }] : []
      toasts.show(TONES.job, notification.title, notification.body, { sticky: true, actions })
      return
    }
    if (notification.kind === 'stock' || notification.kind === 'reclaimed') return availability.announce(notification)
    // A stuck start and a low balance ask for something to be done: they stay until dismissed.
    const sticky = notification.kind === 'stuck' || notification.kind === 'low-balance'
    toasts.show(TONES[notification.kind], notification.title, notification.body, { sticky })
  })
}

function isGuardKind(kind: AppNotification['kind']): kind is GuardKind {
  return (GUARD_KINDS as readonly string[]).includes(kind)
}
