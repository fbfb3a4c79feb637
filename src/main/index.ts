/**
 * Wiring only: single-instance lock, app lifecycle, the Platform built from the Electron
 * adapters, createAppCore, and the IPC binding. Everything with logic lives in a core file.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import { app, clipboard, ipcMain, net, powerMonitor } from 'electron'
import { createAppCore } from './core'
import type { AppCore, Platform } from './core-types'
import { createOsKeychain } from './account/keychain'
import { createLogger, logDirFor } from './log'
import { createReach } from '../emulator/reach/index'
import { bindIpc, type IpcMainLike } from './ipc'
import { createNotificationAdapter } from './notify/notification-adapter'
import { createNotebookWindows } from './notebook/notebook-window-adapter'
import { createTrayAdapter } from './tray/tray-adapter'
import { createMainWindowController, openEditorLink, openInBrowser } from './windows/main-window-adapter'
import { setLinuxAutostart } from './windows/autostart'

/** How often to ask the OS whether the network is up (Electron's main process has no event). */
const ONLINE_CHECK_MS = 5_000

if (!app.requestSingleInstanceLock()) {
  // A second launch: the first instance is told (second-instance) and shows its window.
  app.quit()
} else {
  void app.whenReady().then(start)
}

async function start(): Promise<void> {
  let quitting = false
  let core: AppCore | undefined
  const outDir = join(import.meta.dirname, '..')
  const dataDir = app.getPath('userData')
  const log = createLogger({ dir: logDirFor(dataDir) })

  const window = createMainWindowController({
    outDir,
    ...(process.env['ELECTRON_RENDERER_URL'] ? { devUrl: process.env['ELECTRON_RENDERER_URL'] } : {}),
    isQuitting: () => quitting,
    openExternal: (url) => void core?.handle('external.open', { url }, { clientId: 'main' }),
    onFocus: () => core?.onSystemEvent('focus'),
    onGone: (id) => core?.clientGone(String(id))
  })
  const notifier = createNotificationAdapter((n) => core?.openInstance(n.instanceId))
  const tray = createTrayAdapter((itemId) => {
    void core?.handle('tray.activate', { itemId }, { clientId: 'main' }).then((result) => {
      // The tray has no place for errors: say it as a notification.
      if (!result.ok) notifier.show({ id: `tray-${Date.now()}`, kind: 'summary', title: 'Cloud Tray', body: result.error.message })
    })
  })
  const notebooks = createNotebookWindows((line) => log.info(line))

  const platform: Platform = {
    shell: 'electron',
    showNotification: (n) => notifier.show(n),
    setTray: (model) => tray.set(model),
    openNotebook: (request) => notebooks.open(request),
    refreshNotebookCookies: (profileId, token) => notebooks.refreshCookies(profileId, token),
    openExternal: (url) => openInBrowser(url),
    openEditor: (url) => openEditorLink(url),
    setStartAtLogin: (enabled) => setStartAtLogin(enabled),
    showWindow: () => window.show(),
    quit: () => app.quit(),
    writeClipboard: (text) => clipboard.writeText(text)
  }

  const setStartAtLogin = (enabled: boolean): void => {
    if (process.platform === 'linux') {
      const configHome = process.env['XDG_CONFIG_HOME'] || join(homedir(), '.config')
      void setLinuxAutostart(enabled, configHome, process.env['APPIMAGE'] || process.execPath).catch(() => undefined)
    } else {
      app.setLoginItemSettings({ openAtLogin: enabled, args: ['--hidden'] })
    }
  }

  core = createAppCore({
    dataDir,
    log,
    platform,
    keychain: createOsKeychain(),
    version: app.getVersion(),
    // The Sandbox's instances are reachable for real: SSH, the notebook page, forwarded ports.
    reach: createReach()
  })
  // Signing out ends access to the instances too: no notebook page stays open on the old login.
  core.subscribe((event, payload) => {
    if (event === 'session' && (payload as { status: string }).status === 'signed-out') notebooks.closeAll()
  })
  bindIpc(core, ipcMain as unknown as IpcMainLike, () => window.contents(), () => ({
    webContentsIds: new Set(window.contents().map((c) => c.id)),
    ...window.page
  }))

  app.on('second-instance', () => window.show())
  // macOS: clicking the Dock icon brings the window back.
  app.on('activate', () => window.show())
  // Closing the window hides it; the app lives in the tray until Quit.
  app.on('window-all-closed', () => undefined)
  app.on('before-quit', () => {
    quitting = true
  })
  let stopped = false
  app.on('will-quit', (event) => {
    if (stopped || !core) return
    event.preventDefault()
    stopped = true
    notebooks.closeAll()
    void core.stop().finally(() => {
      log.close()
      app.quit()
    })
  })

  powerMonitor.on('suspend', () => core?.onSystemEvent('suspend'))
  powerMonitor.on('resume', () => core?.onSystemEvent('resume'))
  let online = net.isOnline()
  setInterval(() => {
    const now = net.isOnline()
    if (now !== online) core?.onSystemEvent(now ? 'online' : 'offline')
    online = now
  }, ONLINE_CHECK_MS).unref()

  await core.start()
  const settings = await core.handle('settings.get', undefined, { clientId: 'main' })
  if (settings.ok) {
    // The OS setting follows ours, so a change made while the app was not running is applied.
    platform.setStartAtLogin(settings.value.startAtLogin)
    // Started at login (`--hidden`, or macOS's flag): the window opens only if the user asked
    // for it; a launch by hand always shows it, so the app never seems not to start.
    const atLogin = process.argv.includes('--hidden') || app.getLoginItemSettings().wasOpenedAtLogin === true
    if (!atLogin || settings.value.openWindowAtStart) window.show()
  } else {
    window.show()
  }
}
