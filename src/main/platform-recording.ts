/**
 * In the web shell every Electron-only effect (a notification, a notebook window, an external
 * link, the clipboard) is recorded and shown on the page instead of being lost; the Electron
 * shell's Platform passes through untouched.
 */
import type { RecordedEffect } from '../shared/contract'
import type { Platform } from './core-types'

export function recordingEffects(platform: Platform, now: () => number, record: (effect: RecordedEffect) => void): Platform {
  if (platform.shell !== 'web') return platform
  const note = (kind: RecordedEffect['kind'], detail: string): void => {
    const effect = { at: now(), kind, detail }
    record(effect)
    platform.record?.(effect)
  }
  return {
    shell: platform.shell,
    showNotification(n) {
      note('os-notification', `${n.title} — ${n.body}`)
      platform.showNotification(n)
    },
    setTray: (model) => platform.setTray(model),
    async openNotebook(request) {
      note('notebook-window', request.url)
      await platform.openNotebook(request)
    },
    refreshNotebookCookies: (profileId, value) => platform.refreshNotebookCookies(profileId, value),
    async openExternal(url) {
      note('external-url', url)
      // why: this is our Platform interface, not Electron's shell; the Electron platform checks every URL (openInBrowser).
      await platform.openExternal(url) // eng-disable OPEN_EXTERNAL_JS_CHECK
    },
    async openEditor(url) {
      note('external-url', url)
      await platform.openEditor(url)
    },
    setStartAtLogin: (enabled) => platform.setStartAtLogin(enabled),
    showWindow: () => platform.showWindow(),
    quit: () => platform.quit(),
    writeClipboard(text) {
      note('clipboard', text)
      platform.writeClipboard?.(text)
    }
  }
}
