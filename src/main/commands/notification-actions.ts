/**
 * A desktop notification clicked, or one of its buttons pressed (macOS has real buttons): the
 * same commands the window's buttons send, run as main (no window to ask), then the window shown
 * where the choice continues. The web shell's toasts send those commands from the page instead.
 *
 * - the cost guard's "Stop now" / "Keep running" → `instances.stop` / `cost.keepRunning`;
 * - a stock notice's click or "Launch now" → `availability.launchNow`: the review step filled in,
 *   or the form saying the stock came and went; "Dismiss" → `availability.cancel`;
 * - a reclaim's "Relaunch like this one" → `launches.again` at the review step;
 * - a job's end, clicked or its "Open" → `jobs.open`: the window shows the job's terminal;
 * - any other click opens the window at the notice's instance.
 */
import type {
  AppNotification,
  CommandInput,
  CommandName,
  CommandResult,
  NavigateTarget,
  NotificationAction,
  Result
} from '../../shared/contract'
import { MAIN_CLIENT, type EventSink, type Platform } from '../core-types'

export interface NotificationActionServices {
  handle<C extends CommandName>(command: C, input: CommandInput<C>, context: { clientId: string }): Promise<Result<CommandResult<C>>>
  platform: Pick<Platform, 'showWindow' | 'showNotification'>
  emit: EventSink
  log?: { warn(message: string, data?: unknown): void } | undefined
}

/** Answers a click or a button at once; what it runs goes on in the background and says so if it fails. */
export function notificationActivator(
  services: NotificationActionServices
): (notification: AppNotification, action?: NotificationAction['id']) => void {
  const run = <C extends CommandName>(command: C, input: CommandInput<C>) => services.handle(command, input, { clientId: MAIN_CLIENT })
  const show = (target: NavigateTarget): void => {
    services.platform.showWindow()
    services.emit('navigate', target)
  }
  /** A choice that failed says so where the user is looking: another notice (the window may be closed). */
  const failed = (title: string, message: string): void => {
    services.log?.warn(`notification action failed: ${title}: ${message}`)
    services.platform.showNotification({ id: `action-failed-${Date.now()}`, kind: 'summary', title, body: message })
  }
  const activate = async (notification: AppNotification, action?: NotificationAction['id']): Promise<void> => {
    const { instanceId, watchId, jobId } = notification
    if (action === 'stop-now' && instanceId) {
      const result = await run('instances.stop', { instanceId })
      if (!result.ok) failed('Could not stop the instance', result.error.message)
    } else if (action === 'keep-running' && instanceId) {
      const result = await run('cost.keepRunning', { instanceId })
      if (!result.ok) failed('Could not keep it running', result.error.message)
    } else if (action === 'dismiss' && watchId) {
      await run('availability.cancel', { watchId })
    } else if (watchId && notification.kind === 'stock' && (action === 'launch-now' || action === undefined)) {
      const outcome = await run('availability.launchNow', { watchId })
      if (outcome.ok) show({ view: 'create-instance', fill: outcome.value.fill })
      else show({ view: 'instances' })
    } else if (jobId && notification.kind === 'job' && (action === 'open-job' || action === undefined)) {
      const result = await run('jobs.open', { jobId })
      if (!result.ok) failed('Could not open the job', result.error.message)
    } else if (action === 'relaunch' && instanceId) {
      const fill = await run('launches.again', { instanceId, review: true })
      if (fill.ok) show({ view: 'create-instance', fill: fill.value })
      else failed('Could not relaunch it', fill.error.message)
    } else {
      show(instanceId !== undefined ? { view: 'instances', instanceId } : { view: 'instances' })
    }
  }
  return (notification, action) => {
    activate(notification, action).catch((error: unknown) => failed('Cloud Tray could not do that', String(error)))
  }
}
