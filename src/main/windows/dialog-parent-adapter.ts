/**
 * Where a question from main (quit, unsaved work) is attached. From the window: that window. From
 * the tray, with the window hidden: the app window, shown and brought forward, so the question
 * opens in front instead of behind other apps (macOS does not activate an app for a menu-bar
 * click; Windows does not let a background process take the foreground) and Quit never seems to
 * do nothing.
 */
import { app, BrowserWindow } from 'electron'

let appWindow: (() => BrowserWindow | undefined) | undefined

/** index.ts: the app window, shown and focused, for questions that have no window of their own. */
export function useAppWindowForDialogs(get: () => BrowserWindow | undefined): void {
  appWindow = get
}

export function dialogParent(): BrowserWindow | undefined {
  const focused = BrowserWindow.getFocusedWindow()
  if (focused) return focused
  if (process.platform === 'darwin') app.focus({ steal: true })
  return appWindow?.()
}
