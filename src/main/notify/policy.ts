/**
 * Which events deserve a desktop notification, and what they say: what a person waits for (an
 * instance ready, failed, stopped by someone else, released, stuck starting; the balance running
 * low). Pure: the caller passes what this app asked for itself (a stop the user clicked is not
 * news) and the settings.
 */
import type { AppNotification, NotificationKind, Settings, StuckStart, Transition } from '../../shared/contract'
import { knownStatus } from '../../shared/instance-rules'
import { transitionWords } from '../../shared/transition-words'
import { formatDollars } from '../../shared/money'

/** More notifications than this at once become one summary. */
export const SUMMARY_THRESHOLD = 3

export interface AppActions {
  /** Instance ids this app asked to stop and whose Stopped it has not seen yet. */
  stopping: ReadonlySet<string>
  /** Instance ids this app asked to terminate. */
  terminating: ReadonlySet<string>
  /** Instance ids this app created (a first sighting as Running is then news). */
  created: ReadonlySet<string>
}

export interface PolicyResult {
  notifications: AppNotification[]
  /** Ids whose app-initiated action this batch completed: the caller forgets them. */
  settled: { stopping: string[]; terminating: string[]; created: string[] }
  /**
   * Spot instances that stopped without this app asking: the provider reclaimed them. They get
   * no "stopped" notice here; the availability part says it, with a relaunch (src/main/availability).
   */
  reclaimed: { instanceId: string; name: string }[]
}

type Prefs = Settings['notifications']

export function notificationsFor(
  transitions: readonly Transition[],
  actions: AppActions,
  prefs: Prefs,
  makeId: (kind: NotificationKind, instanceId?: string) => string
): PolicyResult {
  const settled: PolicyResult['settled'] = { stopping: [], terminating: [], created: [] }
  const reclaimed: PolicyResult['reclaimed'] = []
  const single: AppNotification[] = []
  const add = (kind: 'ready' | 'failed' | 'stopped' | 'released', t: Transition, title: string, body: string): void => {
    if (prefs[kind]) single.push({ id: makeId(kind, t.instanceId), kind, title, body, instanceId: t.instanceId })
  }
  for (const t of transitions) {
    const words = transitionWords(t)
    if (words.kind === 'ready') {
      const created = actions.created.has(t.instanceId)
      if (created) settled.created.push(t.instanceId)
      if (t.from !== null || created) add('ready', t, words.title, words.body ?? '')
    } else if (words.kind === 'failed') {
      if (actions.created.has(t.instanceId)) settled.created.push(t.instanceId)
      add('failed', t, words.title, words.body ?? '')
    } else if (words.kind === 'stopped') {
      if (actions.stopping.has(t.instanceId)) {
        settled.stopping.push(t.instanceId)
      } else if (t.from !== null && t.spot) {
        reclaimed.push({ instanceId: t.instanceId, name: t.name })
      } else if (t.from !== null) {
        add('stopped', t, words.title, words.body ?? 'It was stopped outside Cloud Tray; spot instances can be reclaimed by the provider.')
      }
    } else if (words.kind === 'released') {
      if (actions.terminating.has(t.instanceId)) {
        settled.terminating.push(t.instanceId)
      } else if (t.from !== null && knownStatus(t.from) !== 'Released') {
        add('released', t, words.title, words.body ?? '')
      }
    }
  }
  if (single.length <= SUMMARY_THRESHOLD) return { notifications: single, settled, reclaimed }
  return { notifications: [summarise(single, makeId('summary'))], settled, reclaimed }
}

function summarise(items: readonly AppNotification[], id: string): AppNotification {
  const lines = items.slice(0, 6).map((n) => n.title)
  if (items.length > lines.length) lines.push(`and ${items.length - lines.length} more`)
  return { id, kind: 'summary', title: `${items.length} instances changed`, body: lines.join('\n') }
}

export function expiringNotification(id: string, minutesLeft: number): AppNotification {
  return {
    id,
    kind: 'expiring',
    title: 'Your session ends soon',
    body: `Cloud Tray will stop watching your instances in ${minutesLeft} minute${minutesLeft === 1 ? '' : 's'}. Sign in again to keep going.`
  }
}

/**
 * A stuck start: what the service reports and what to do. It keeps costing money while it
 * waits, and the real service never gives up on an image it cannot pull, so the advice is to
 * delete it and launch again with an image that works.
 */
export function stuckNotification(id: string, stuck: StuckStart, now: number): AppNotification {
  const name = `«${stuck.name}»`
  const minutes = Math.max(1, Math.round((now - stuck.since) / 60_000))
  const reported =
    stuck.reason === 'back-off'
      ? `The cloud reports ${stuck.diagnosisReason ?? 'a back-off'}${stuck.diagnosisMessage ? `: “${stuck.diagnosisMessage}”` : ''}. The image could not be pulled; it may be misspelt or private.`
      : `It has been “${stuck.status}” for ${minutes} minute${minutes === 1 ? '' : 's'} without progress.`
  const advice =
    stuck.reason === 'back-off'
      ? 'It keeps billing while it retries: delete it for good in Cloud Tray, then create it again with an image id from the console.'
      : 'It keeps billing while it waits: if it does not move soon, delete it for good in Cloud Tray and create it again.'
  return { id, kind: 'stuck', title: `${name} is stuck starting`, body: `${reported} ${advice}`, instanceId: stuck.instanceId }
}

/**
 * The available balance fell below the user's threshold. The Sandbox bills practice money, which
 * its Settings add; any other cloud is topped up in its own console.
 */
export function lowBalanceNotification(id: string, available: number, threshold: number, sandbox = false): AppNotification {
  return {
    id,
    kind: 'low-balance',
    title: `${sandbox ? 'Practice balance' : 'Balance'} low: ${formatDollars(available)}`,
    body: sandbox
      ? `The Sandbox's practice balance is below the ${formatDollars(threshold)} you set in Settings. Add practice money in Settings → Sandbox, or stop instances you do not need.`
      : `Your available balance is below the ${formatDollars(threshold)} you set in Settings. Top up in your provider's console, or stop instances you do not need.`
  }
}
