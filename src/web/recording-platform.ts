/**
 * In the web shell every Electron-only effect (a notification, a notebook window, an external
 * link, the clipboard) is recorded and shown on the page instead of being lost. The web shell
 * wraps its own Platform with this before handing it to the core, so what it records is what
 * the core asked of the OS, made safe for it (os-text.ts) like every such text.
 */
import type { RecordedEffect } from '../shared/web/web-shell-events'
import type { Platform } from '../main/core-types'

/** How many recorded effects are kept: a page lists the latest ones, and is sent them when it connects. */
const MAX_RECORDED = 50

/** The latest recorded effects, each with an id that counts up; `added` hears of each new one. */
export class EffectLog {
  private readonly effects: RecordedEffect[] = []
  private nextId = 1

  constructor(
    private readonly now: () => number,
    private readonly added: (effect: RecordedEffect) => void
  ) {}

  add(kind: RecordedEffect['kind'], detail: string): void {
    const effect: RecordedEffect = { id: this.nextId++, at: this.now(), kind, detail }
    this.effects.push(effect)
    if (this.effects.length > MAX_RECORDED) this.effects.shift()
    this.added(effect)
  }

  /** Oldest first. */
  all(): RecordedEffect[] {
    return [...this.effects]
  }
}

/** `platform`, with each Electron-only effect noted in `log` before it is passed on. */
export function recordingEffects(platform: Platform, log: EffectLog): Platform {
  return {
    // What records nothing passes through as it is (a spread: a new Platform member is never dropped).
    ...platform,
    showNotification(n) {
      log.add('os-notification', `${n.title} — ${n.body}`)
      platform.showNotification(n)
    },
    setTray: (model) => platform.setTray(model),
    async openNotebook(request) {
      log.add('notebook-window', request.url)
      await platform.openNotebook(request)
    },
    refreshNotebookCookies: (profileId, value) => platform.refreshNotebookCookies(profileId, value),
    async openExternal(url) {
      log.add('external-url', url)
      // why: this is our Platform interface, not Electron's shell; the Electron platform checks every URL (openInBrowser).
      await platform.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK
    },
    async openEditor(url) {
      log.add('external-url', url)
      await platform.openEditor(url)
    },
    setStartAtLogin: (enabled) => platform.setStartAtLogin(enabled),
    showWindow: () => platform.showWindow(),
    quit: () => platform.quit(),
    writeClipboard(text) {
      log.add('clipboard', text)
      platform.writeClipboard?.(text)
    }
  }
}
