/**
 * What `npm run web` tells its pages besides main's own events (contract.ts): the stand-ins for
 * the parts only Electron has, the tray and the effects that would leave the page. Main never
 * sends these and the Electron app never receives them; the web shell does (src/web/web-platform.ts),
 * over its WebSocket transport only. A page that connects is sent the current tray and the latest
 * recorded effects at once, so it needs no command to catch up.
 */
import type { AppNotification, TrayModel } from '../contract'

/** What an Electron-only effect would have done (e.g. open a notebook window), shown on the page instead. */
export interface RecordedEffect {
  /** Counts up in each run: a page that reconnects and is sent the latest effects again keeps each once. */
  id: number
  at: number
  kind: 'notebook-window' | 'external-url' | 'os-notification' | 'clipboard'
  /** e.g. the notebook URL (never the cookie value). */
  detail: string
}

export interface WebShellEvents {
  /** The tray menu main hands to the platform; the page's tray panel shows it and runs its items. */
  tray: TrayModel
  recorded: RecordedEffect
  /**
   * A notification the desktop would show. The page shows the cost guard's as toasts with their
   * choices ("Keep running", "Stop now"); the others' status changes already have their toasts.
   */
  notification: AppNotification
  /**
   * The tray's Quit ran: the web shell is closing. The page stops reconnecting and says Cloud
   * Tray has quit, instead of an error and "Reconnecting…" for ever.
   */
  quit: Record<string, never>
  /**
   * A file main would have saved through a dialog (an exported launch template): the page that
   * asked saves it as a download.
   */
  download: { fileName: string; text: string }
}

export type WebShellEventName = keyof WebShellEvents
