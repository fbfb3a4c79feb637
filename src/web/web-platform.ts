/**
 * The Platform of `npm run web`: what Electron would do, done in the page instead. Each
 * Electron-only effect the core asks for is recorded (recording-platform.ts) and told to the
 * pages as a `recorded` event, and the tray menu as a `tray` event (src/shared/web/web-shell-events.ts);
 * a page that connects is sent the current tray and the latest effects. What is left for each
 * method is what a browser-hosted app can do itself, or a line in the terminal running the shell.
 */
import type { TrayModel } from '../shared/contract'
import type { RecordedEffect, WebShellEventName, WebShellEvents } from '../shared/web/web-shell-events'
import type { ClientId, Platform } from '../main/core-types'
import { EffectLog, recordingEffects } from './recording-platform'

export type WebShellEventSink = <E extends WebShellEventName>(event: E, payload: WebShellEvents[E], target?: ClientId) => void

export interface WebPlatformOptions {
  /** The tray's "Quit": stop the web shell. */
  onQuit: () => void
  /** When an effect was recorded (the core's clock). */
  now: () => number
  /** Lines for the terminal running `npm run web` (what would have happened). */
  log?: (line: string) => void
  /**
   * The desktop's handler for editor links (vscode://, cursor://): resolves when one took the
   * link, rejects (with the reason) when none would. Default: recorded and taken. Tests pass a
   * refusing one to see what a computer without VS Code shows.
   */
  editorHandler?: (url: string) => Promise<void>
}

export interface WebPlatform {
  /** What the core is given. */
  readonly platform: Platform
  /** The web shell's own events for its pages; returns a function that removes the sink. */
  subscribe(sink: WebShellEventSink): () => void
  /** A page connected: it is sent the current tray and the latest recorded effects, oldest first. */
  welcome(clientId: ClientId): void
  /** The latest recorded effects, oldest first. */
  recorded(): RecordedEffect[]
}

export function createWebPlatform(options: WebPlatformOptions): WebPlatform {
  const log = options.log ?? (() => {})
  const sinks = new Set<WebShellEventSink>()
  const emit: WebShellEventSink = (event, payload, target) => {
    for (const sink of sinks) sink(event, payload, target)
  }
  let tray: TrayModel | undefined
  const effects = new EffectLog(options.now, (effect) => emit('recorded', effect))
  const inPage: Platform = {
    // No desktop to raise it on: the page lists it (recorded) and shows it as a toast.
    showNotification: (notification) => emit('notification', notification),
    setTray(model) {
      tray = model
      emit('tray', model)
    },
    // A notebook window needs Electron's cookie-injected partition; the URL is recorded and listed.
    openNotebook: async (request) => log(`notebook window (recorded): ${request.instanceName} ${request.url}`),
    refreshNotebookCookies: async () => {},
    openExternal: async (url) => log(`external link (recorded): ${url}`),
    openEditor: async (url) => {
      log(`editor link (recorded): ${url}`)
      await options.editorHandler?.(url)
    },
    setStartAtLogin: (enabled) => log(`start at login (recorded): ${enabled ? 'on' : 'off'}`),
    // The page is the window; nothing to raise.
    showWindow: () => {},
    // The pages hear it first: what follows is their connection closing, not a fault.
    quit: () => {
      emit('quit', {})
      options.onQuit()
    },
    writeClipboard: () => {},
    // No save dialog here: the page that asked downloads the file (the browser asks where, as it does).
    async saveFile(file, clientId) {
      emit('download', { fileName: file.defaultName, text: file.text }, clientId)
      return 'page'
    }
  }
  return {
    platform: recordingEffects(inPage, effects),
    subscribe(sink) {
      sinks.add(sink)
      return () => sinks.delete(sink)
    },
    welcome(clientId) {
      if (tray) emit('tray', tray, clientId)
      for (const effect of effects.all()) emit('recorded', effect, clientId)
    },
    recorded: () => effects.all()
  }
}
