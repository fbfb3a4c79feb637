/**
 * The Platform of `npm run web`: what Electron would do, done in the page instead. The core
 * already records every Electron-only effect and sends it to the page as a `recorded` event
 * (platform-recording.ts), emits the tray model as `tray` and notifications as
 * `notification`; so each method here only does what is left for a browser-hosted app.
 */
import type { Platform } from '../main/core-types'

export interface WebPlatformOptions {
  /** The tray's "Quit": stop the web shell. */
  onQuit: () => void
  /** Lines for the terminal running `npm run web` (what would have happened). */
  log?: (line: string) => void
}

export function createWebPlatform(options: WebPlatformOptions): Platform {
  const log = options.log ?? (() => {})
  return {
    shell: 'web',
    // The page shows these as toasts (shell.svelte.ts); there is no OS notification to raise.
    showNotification: () => {},
    // The page's tray panel renders the model from the `tray` event.
    setTray: () => {},
    // A notebook window needs Electron's cookie-injected partition; the URL is recorded and listed.
    openNotebook: async (request) => log(`notebook window (recorded): ${request.instanceName} ${request.url}`),
    refreshNotebookCookies: async () => {},
    openExternal: async (url) => log(`external link (recorded): ${url}`),
    openEditor: async (url) => log(`editor link (recorded): ${url}`),
    setStartAtLogin: (enabled) => log(`start at login (recorded): ${enabled ? 'on' : 'off'}`),
    // The page is the window; nothing to raise.
    showWindow: () => {},
    quit: () => options.onQuit(),
    writeClipboard: () => {}
  }
}
