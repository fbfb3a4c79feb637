/**
 * What the availability watch says, as notifications (pure). Each offers its choices as actions:
 * real buttons where the desktop has them (macOS), toasts with buttons in the web shell, and
 * everywhere a click opens the window where the same choices are (the watch list, the tray).
 */
import type { AppNotification, NotificationAction, NotificationKind } from '../../shared/contract'
import type { StockWatch } from '../../shared/contract-launch'
import { formatClockTime, formatRate } from '../../shared/cost-words'
import type { Found } from './stock'

type MakeId = (kind: NotificationKind, instanceId?: string) => string

const LAUNCH_NOW: NotificationAction = { id: 'launch-now', label: 'Launch now' }
const DISMISS: NotificationAction = { id: 'dismiss', label: 'Dismiss' }
const RELAUNCH: NotificationAction = { id: 'relaunch', label: 'Relaunch like this one' }

const quoted = (name: string): string => `«${name}»`
/** The type part of a watch's label (stock.ts targetWords: "1 × H100-SXM-80GB, per hour, in …"). */
const typeOf = (watch: StockWatch): string => watch.label.split(', ')[0] ?? watch.label

function stockNotice(id: MakeId, watch: StockWatch, title: string, body: string, actions?: NotificationAction[]): AppNotification {
  return { id: id('stock'), kind: 'stock', title, body, watchId: watch.watchId, ...(actions ? { actions } : {}) }
}

/** Stock came for a watch that only tells (or waits for the user's go). */
export function inStockNotice(id: MakeId, watch: StockWatch, found: Found, why?: string): AppNotification {
  const reason = why ? `${why} ` : ''
  return stockNotice(
    id,
    watch,
    `In stock: ${typeOf(watch)} in ${found.regionName}`,
    `${reason}${formatRate(found.hourlyRate)} now. Launch now opens the review step (nothing is created until you press Launch); Dismiss stops watching.`,
    [LAUNCH_NOW, DISMISS]
  )
}

/** Pre-authorised, but the price now is above the user's ceiling: nothing is launched. */
export function aboveCeilingWords(found: Found, ceiling: number): string {
  return `Its price, ${formatRate(found.hourlyRate)}, is above your ceiling of ${formatRate(ceiling)}, so Cloud Tray did not launch it.`
}

export function launchedNotice(id: MakeId, watch: StockWatch, instanceId: string, found: Found): AppNotification {
  const origin = watch.origin.kind === 'reclaim' ? `in place of ${quoted(watch.origin.name)}, ` : ''
  return {
    id: id('stock', instanceId),
    kind: 'stock',
    title: `Launched ${quoted(watch.spec.request.name)} in ${found.regionName}`,
    body: `Stock came, and Cloud Tray launched it ${origin}as you asked, at ${formatRate(found.hourlyRate)}. It bills until you stop or delete it.`,
    instanceId
  }
}

/** An automatic launch that could not finish by itself. */
export function needsYouNotice(id: MakeId, watch: StockWatch, message: string): AppNotification {
  return stockNotice(
    id,
    watch,
    `Could not launch ${quoted(watch.spec.request.name)} by itself`,
    `${message.replace(/\.?$/, '.')} Open Cloud Tray to check your instances; the watch waits for you.`,
    [LAUNCH_NOW, DISMISS]
  )
}

/** The deadline of an automatic launch passed with nothing launched: the watch ends. */
export function deadlineNotice(id: MakeId, watch: StockWatch): AppNotification {
  const until = watch.auto ? ` at ${formatClockTime(watch.auto.deadline)}` : ''
  return stockNotice(
    id,
    watch,
    `Stopped waiting for ${typeOf(watch)}`,
    `Your deadline passed${until} and nothing was launched. Watch again from the create form or a template if you still want it.`
  )
}

/** "«x» was in stock in us-west-1 from 14:05 until 14:06 and is gone again": what a late click finds. */
export function goneWords(watch: StockWatch): string {
  const went = watch.cameAndWent
  const when = went ? ` in ${went.regionName} from ${formatClockTime(went.from)} until ${formatClockTime(went.until)}` : ''
  return `${typeOf(watch)} was in stock${when} and is gone again. Cloud Tray keeps watching and tells you when it is back.`
}

/** A spot instance the provider reclaimed, without an automatic relaunch. */
export function reclaimedNotice(id: MakeId, instanceId: string, name: string): AppNotification {
  return {
    id: id('reclaimed', instanceId),
    kind: 'reclaimed',
    title: `${quoted(name)} was reclaimed by the provider`,
    body: 'The provider stopped this spot instance to take its capacity back; it no longer runs. Relaunch like this one opens the review step with the same settings and volumes.',
    instanceId,
    actions: [RELAUNCH]
  }
}

/** Reclaimed, and a relaunch is pre-authorised: the watch it starts. */
export function relaunchingNotice(id: MakeId, instanceId: string, name: string, watch: StockWatch): AppNotification {
  const until = watch.auto ? `, until ${formatClockTime(watch.auto.deadline)}` : ''
  const ceiling = watch.auto ? ` at most ${formatRate(watch.auto.maxPricePerHour)}${until}` : ''
  return {
    id: id('reclaimed', instanceId),
    kind: 'reclaimed',
    title: `${quoted(name)} was reclaimed by the provider`,
    body: `Cloud Tray relaunches it with the same settings and volumes as soon as stock allows,${ceiling}.`,
    instanceId,
    watchId: watch.watchId,
    actions: [{ id: 'dismiss', label: 'Cancel the relaunch' }]
  }
}
