/**
 * The availability watches as main last told them (#26), and what the window asks of them:
 * "Notify me when available", "Stop watching", "Launch now" (the review step filled in, or why
 * not: the stock came and went), "Relaunch automatically when reclaimed". In the web shell the
 * watch's and a reclaim's notifications are toasts here, with their buttons.
 */
import type { AppNotification, ErrorInfo, Result } from '../../../shared/contract'
import type { AutoLaunch, AvailabilitySnapshot, LaunchSpec, RelaunchRule, StockTarget } from '../../../shared/contract-launch'
import { call } from '../lib/bridge'
import { Mirror, MirroredStore } from '../lib/mirror.svelte'
import { toasts, type ToastAction } from '../lib/toasts.svelte'
import { launchContext } from './launch-context.svelte'

class AvailabilityStore extends MirroredStore {
  protected readonly mirror = new Mirror({
    event: 'availability',
    read: () => call('availability.get'),
    initial: null as AvailabilitySnapshot | null
  })

  get snapshot(): AvailabilitySnapshot | null {
    return this.mirror.value
  }

  get loadError(): ErrorInfo | null {
    return this.mirror.error
  }

  watches = $derived(this.mirror.value?.watches ?? [])

  /** Starts a watch; answers the problem, if any, for the dialog to show. */
  async watch(target: StockTarget, spec: LaunchSpec, auto: (AutoLaunch & { deadline: number }) | null): Promise<ErrorInfo | null> {
    const templateId = launchContext.origin?.templateId
    const result = await call('availability.watch', { target, spec, auto, ...(templateId ? { templateId } : {}) })
    return result.ok ? null : result.error
  }

  async cancel(watchId: string): Promise<void> {
    const result = await call('availability.cancel', { watchId })
    if (!result.ok) toasts.show('error', 'Could not stop watching', result.error.message)
  }

  /** "Launch now": the review step where the stock is; if it came and went, the form says so. */
  async launchNow(watchId: string): Promise<void> {
    const result = await call('availability.launchNow', { watchId })
    if (!result.ok) {
      toasts.show('error', 'Could not launch it now', result.error.message)
      return
    }
    if (result.value.kind === 'gone') toasts.show('warning', 'The stock is gone again', result.value.message, { sticky: true })
    launchContext.open(result.value.fill)
  }

  setRelaunch(instanceId: string, rule: RelaunchRule | null): Promise<Result<AvailabilitySnapshot>> {
    return this.mirror.ask(() => call('availability.setRelaunch', { instanceId, rule }))
  }

  /** A reclaim's "Relaunch like this one": the review step with the same spec and volumes. */
  async relaunch(instanceId: string): Promise<void> {
    const result = await call('launches.again', { instanceId, review: true })
    if (result.ok) launchContext.open(result.value)
    else toasts.show('error', 'Could not relaunch it', result.error.message)
  }

  /** The web shell's toast for a watch's or a reclaim's notification, with its buttons. */
  announce(notification: AppNotification): void {
    const { watchId, instanceId } = notification
    const actions: ToastAction[] = (notification.actions ?? []).flatMap((action) => {
      if (action.id === 'launch-now' && watchId) return [{ label: action.label, run: () => this.launchNow(watchId) }]
      if (action.id === 'dismiss' && watchId) return [{ label: action.label, run: () => this.cancel(watchId) }]
      if (action.id === 'relaunch' && instanceId) return [{ label: action.label, run: () => this.relaunch(instanceId) }]
      return []
    })
    const tone = notification.kind === 'reclaimed' ? 'warning' : actions.length > 0 ? 'success' : 'info'
    toasts.show(tone, notification.title, notification.body, { actions, sticky: notification.kind === 'reclaimed' })
  }
}

export const availability = new AvailabilityStore()
