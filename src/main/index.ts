/**
 * Wiring only: single-instance lock, app lifecycle, build capabilities, bind IPC.
 * (Skeleton: a window and a tray icon; the main-process issue fills in the capabilities.)
 */
import { join } from 'node:path'
import { app, BrowserWindow, Tray, nativeImage } from 'electron'

let tray: Tray | null = null

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1100,
    height: 720,
    show: true,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true
    }
  })
  if (process.env['ELECTRON_RENDERER_URL']) void win.loadURL(process.env['ELECTRON_RENDERER_URL'])
  else void win.loadFile(join(import.meta.dirname, '../renderer/index.html'))
  return win
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  void app.whenReady().then(() => {
    tray = new Tray(nativeImage.createEmpty())
    tray.setToolTip('Cloud Tray')
    createWindow()
  })
}
