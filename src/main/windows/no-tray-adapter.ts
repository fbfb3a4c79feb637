/**
 * A desktop without tray icons (tray-host.ts): the window gets a File → Quit menu, and the first
 * time closing minimizes the window the user is told why, once per install (a marker in the data
 * folder), beside the window.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { dialog, type BrowserWindow } from 'electron'
import { applicationMenuTemplate } from './desktop-integration'
import { setAppMenu } from './app-menu-adapter'
import { NO_TRAY_MESSAGE } from './tray-host'

export function useNoTrayMenu(isPackaged: boolean): void {
  setAppMenu(applicationMenuTemplate(process.platform, isPackaged, false))
}

export function explainNoTrayOnce(dataDir: string): (window: BrowserWindow) => void {
  const marker = join(dataDir, 'no-tray-explained')
  let told = existsSync(marker)
  return (window) => {
    if (told) return
    told = true
    try {
      writeFileSync(marker, `${new Date().toISOString()}\n`)
    } catch {
      // Told again next time: better than never.
    }
    void dialog.showMessageBox(window, { type: 'info', ...NO_TRAY_MESSAGE, buttons: [...NO_TRAY_MESSAGE.buttons], noLink: true })
  }
}
