/**
 * A status change in words, the same in the desktop notification (src/main/notify/policy.ts,
 * which decides which changes deserve one) and in `cloud-tray watch`, which prints every change.
 */
import type { Transition } from './contract'
import { knownStatus, statusGroup } from './instance-rules'
import { statusWords } from './status-words'

export interface TransitionWords {
  /** What kind of change: the notification kinds, or `changed` for any other step. */
  kind: 'ready' | 'failed' | 'stopped' | 'released' | 'changed'
  title: string
  /** What the cloud said about it, or what to do; absent when there is nothing to add. */
  body?: string
}

export const READY_BODY = 'Open its notebook or a terminal from Cloud Tray.'

export function transitionWords(t: Transition): TransitionWords {
  const name = `«${t.name}»`
  const to = t.to === null ? null : knownStatus(t.to)
  if (to === 'Running') return { kind: 'ready', title: `${name} is ready`, body: READY_BODY }
  if (t.to !== null && statusGroup(t.to) === 'failed') {
    return { kind: 'failed', title: `${name} failed to start`, body: t.diagnosisMessage || t.message || 'The cloud gave no reason.' }
  }
  if (to === 'Stopped') return { kind: 'stopped', title: `${name} stopped`, ...(t.message ? { body: t.message } : {}) }
  if (to === 'Released' || t.to === null) {
    const body = t.to === null ? 'It is no longer in your instance list.' : t.message || 'Its resources were returned to the provider.'
    return { kind: 'released', title: `${name} was released`, body }
  }
  const title = t.from === null ? `${name} appeared: ${statusWords(t.to)}` : `${name}: ${statusWords(t.from)} → ${statusWords(t.to)}`
  return { kind: 'changed', title, ...(t.message ? { body: t.message } : {}) }
}
