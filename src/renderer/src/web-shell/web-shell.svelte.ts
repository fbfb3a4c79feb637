/**
 * `npm run web` only: the page's stand-ins for the parts only Electron has (the tray menu, and a
 * list of what would have opened outside the page) and the state of its connection to the web
 * shell. The web shell sends the tray and the latest recorded effects when the page connects, and
 * again after a reconnect. In Electron none of this is used.
 */
import type { TrayModel } from '../../../shared/contract'
import type { RecordedEffect } from '../../../shared/web/web-shell-events'
import { closeWebShellConnection, inWebShell, onConnectionState, onWebShell } from '../lib/bridge'
import type { ConnectionState } from '../lib/transport-ws'

const MAX_RECORDED = 50

/** What stands in for the parts only Electron has, in the user's words. */
const STAND_INS = [
  'Desktop notifications appear as messages on this page.',
  'The tray menu is shown as a panel on this page.',
  'Notebook windows and links are recorded and listed instead of opened.'
]

class WebShellStore {
  readonly active = inWebShell()
  readonly standIns = this.active ? STAND_INS : []
  tray = $state<TrayModel | null>(null)
  /** Newest first. */
  recorded = $state<RecordedEffect[]>([])
  connection = $state<ConnectionState>('open')
  /**
   * Cloud Tray quit from this page's tray panel (or told the page it is quitting): the lost
   * connection that follows is the quit, not a fault, so nothing reconnects or reports an error.
   */
  quit = $state(false)
  private quitAsked = false

  /** The tray panel's Quit is on its way: a connection lost from now on is Cloud Tray quitting. */
  quitting(): void {
    this.quitAsked = true
  }

  private ended(): void {
    this.quit = true
    closeWebShellConnection()
  }

  listen(): () => void {
    if (!this.active) return () => {}
    const offs = [
      onWebShell('tray', (tray) => {
        this.tray = tray
      }),
      // An OS notification is listed here, and the status change behind it already has its toast
      // (instances.svelte.ts), so it gets no second one.
      onWebShell('recorded', (effect) => {
        if (this.recorded.some((seen) => seen.id === effect.id)) return
        this.recorded = [effect, ...this.recorded].slice(0, MAX_RECORDED)
      }),
      onWebShell('quit', () => this.ended()),
      onConnectionState((state) => {
        if (this.quitAsked && state !== 'open') this.ended()
        else this.connection = state
      }),
      // A file main would have saved through a dialog (an exported template): the browser downloads it.
      onWebShell('download', (file) => download(file.fileName, file.text))
    ]
    return () => offs.forEach((off) => off())
  }
}

/** Saves `text` as a download named `fileName` (the browser asks where, or puts it in Downloads). */
function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export const webShell = new WebShellStore()
