/**
 * "On Quit, offer to stop running instances" (off by default; Settings → Cost guard), as
 * Multipass asks when it closes: what to ask, and what the answer means. Pure; the Electron
 * dialog (src/main/windows/quit-offer-adapter.ts) and the web shell's tray panel show it.
 */
import type { QuitOffer } from './contract-cost'
import { formatRate } from './cost-words'

export interface QuitQuestion {
  type: 'question'
  title: string
  message: string
  detail: string
  /** [stop and quit, quit and keep them, cancel]: the answer's index says which. */
  buttons: [string, string, string]
  defaultId: 0
  cancelId: 2
  noLink: true
}

export type QuitChoice = 'stop-and-quit' | 'quit' | 'cancel'

const MAX_NAMED = 5

export function quitQuestion(offer: QuitOffer): QuitQuestion {
  const count = offer.instances.length
  const names = offer.instances.slice(0, MAX_NAMED).map((entry) => `«${entry.name}»`)
  if (count > MAX_NAMED) names.push(`and ${count - MAX_NAMED} more`)
  const them = count === 1 ? 'it' : 'them'
  return {
    type: 'question',
    title: 'Instances still running',
    message: count === 1 ? `Stop ${names[0]} before quitting?` : `Stop ${count} running instances before quitting?`,
    detail:
      `${names.join(', ')} ${count === 1 ? 'is' : 'are'} running at about ${formatRate(offer.burnRatePerHour)}. ` +
      `Once Cloud Tray quits, nothing reminds you or stops ${them}. Stopping keeps the data on ${count === 1 ? 'its' : 'their'} disks.`,
    buttons: [count === 1 ? 'Stop It and Quit' : 'Stop Them and Quit', 'Quit, Keep Running', 'Cancel'],
    defaultId: 0,
    cancelId: 2,
    noLink: true
  }
}

export function quitChoice(response: number): QuitChoice {
  return response === 0 ? 'stop-and-quit' : response === 1 ? 'quit' : 'cancel'
}
