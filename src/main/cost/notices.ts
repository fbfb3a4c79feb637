/**
 * What the cost guard says, as notifications. Pure: the guard passes the instance's name, what
 * happened and the figures. Every notice that offers a choice carries it as actions ("Keep
 * running", "Stop now"): real buttons where the desktop has them (macOS), and everywhere a click
 * opens the window at the instance, where the same buttons are shown with the countdown.
 */
import type { AppNotification, NotificationAction, NotificationKind } from '../../shared/contract'
import type { Countdown } from '../../shared/contract-cost'
import { formatClockTime, formatDuration, formatEstimate, formatRate, planWords } from '../../shared/cost-words'
import { KEEP_RUNNING_MS } from '../../shared/guard-rules'

type MakeId = (kind: NotificationKind, instanceId?: string) => string

export interface NoticeSubject {
  instanceId: string
  name: string
  hourlyRate: number
  costSoFar: number
}

const KEEP_HOURS = Math.round(KEEP_RUNNING_MS / 3_600_000)
const STOP_NOW: NotificationAction = { id: 'stop-now', label: 'Stop now' }
const KEEP_RUNNING: NotificationAction = { id: 'keep-running', label: 'Keep running' }
const KEEP_FOR: NotificationAction = { id: 'keep-running', label: `Keep running for ${KEEP_HOURS} h` }

const quoted = (name: string): string => `«${name}»`
const cost = (subject: NoticeSubject): string =>
  subject.hourlyRate > 0
    ? `${formatEstimate(subject.costSoFar)} so far at ${formatRate(subject.hourlyRate)} (an estimate)`
    : 'its price per hour is not known'

export function reminderNotice(id: MakeId, subject: NoticeSubject, runningMs: number): AppNotification {
  return {
    id: id('reminder', subject.instanceId),
    kind: 'reminder',
    title: `${quoted(subject.name)} has been running for ${formatDuration(runningMs)}`,
    body: `It is still costing money: ${cost(subject)}. Stop it if you are done with it.`,
    instanceId: subject.instanceId,
    actions: [STOP_NOW, KEEP_FOR]
  }
}

export function countdownNotice(id: MakeId, subject: NoticeSubject, countdown: Countdown, now: number, resumed: boolean): AppNotification {
  const minutes = Math.max(1, Math.round((countdown.endsAt - now) / 60_000))
  const restarted = resumed ? 'Cloud Tray was restarted, so the notice starts again. ' : ''
  return {
    id: id('countdown', subject.instanceId),
    kind: 'countdown',
    title: `${quoted(subject.name)} stops in ${minutes} min`,
    body: `${restarted}Cloud Tray will stop it at ${formatClockTime(countdown.endsAt)} because ${countdown.reason}. Choose Keep running to leave it on for ${KEEP_HOURS} more hours.`,
    instanceId: subject.instanceId,
    actions: [KEEP_RUNNING, STOP_NOW]
  }
}

export function cancelledNotice(id: MakeId, subject: NoticeSubject, why: string): AppNotification {
  return {
    id: id('countdown', subject.instanceId),
    kind: 'countdown',
    title: `${quoted(subject.name)} keeps running`,
    body: `Cloud Tray will not stop it now: ${why}.`,
    instanceId: subject.instanceId
  }
}

export function stoppedNotice(id: MakeId, subject: NoticeSubject, reason: string): AppNotification {
  const rate = subject.hourlyRate > 0 ? ` It was costing ${formatRate(subject.hourlyRate)}.` : ''
  return {
    id: id('auto-stop', subject.instanceId),
    kind: 'auto-stop',
    title: `Cloud Tray stopped ${quoted(subject.name)}`,
    body: `It stopped it because ${reason}.${rate} Data on its disks and mounted storage stays.`,
    instanceId: subject.instanceId
  }
}

export function stopFailedNotice(id: MakeId, subject: NoticeSubject, message: string): AppNotification {
  return {
    id: id('auto-stop', subject.instanceId),
    kind: 'auto-stop',
    title: `Could not stop ${quoted(subject.name)}`,
    body: `${message.replace(/\.?$/, '.')} It is still running and costing money; Cloud Tray tries again every minute, or stop it yourself.`,
    instanceId: subject.instanceId,
    actions: [STOP_NOW, KEEP_RUNNING]
  }
}

export function planEndingNotice(
  id: MakeId,
  subject: NoticeSubject,
  plan: { chargeMode: string; periods: number },
  endsAt: number,
  now: number
): AppNotification {
  return {
    id: id('plan-ending', subject.instanceId),
    kind: 'plan-ending',
    title: `${quoted(subject.name)}'s plan ends in ${formatDuration(endsAt - now)}`,
    body: `Its ${planWords(plan.chargeMode, plan.periods)} ends at ${formatClockTime(endsAt)} and the instance stops then. Save your work before that.`,
    instanceId: subject.instanceId
  }
}
