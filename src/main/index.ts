/**
 * Wiring only: single-instance lock, app lifecycle, the Platform built from the Electron
 * adapters, createAppCore, and the IPC binding. Everything with logic lives in a core file.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import { app, clipboard, dialog, ipcMain, Menu, net, powerMonitor, type MenuItemConstructorOptions } from 'electron'
import { createAppCore } from './core'
import type { AppCore, Platform } from './core-types'
import type { Events } from '../shared/contract'
import { createOsKeychain } from './account/keychain'
import { sandboxReach } from './account/sandbox-emulator'
import { createLogger, logDirFor } from './log'
import { bindIpc, type IpcMainLike } from './ipc'
import { createNotificationAdapter } from './notify/notification-adapter'
import { createNotebookWindows } from './notebook/notebook-window-adapter'
import { createTrayAdapter } from './tray/tray-adapter'
import { createMainWindowController, openEditorLink, openInBrowser } from './windows/main-window-adapter'
import { handleQuit } from './windows/quit-adapter'
import { askBeforeQuit } from './windows/quit-offer-adapter'
import { askToLeave } from './windows/leave-dialog-adapter'
import { notebookAccessAfter, type NotebookOwner } from './notebook/notebook-access'
import { setLinuxAutostart } from './windows/autostart'
import { osSafeNotification } from './os-text'
import { startupFailure } from './startup-failure'
import { appUserModelId, applicationMenuTemplate, managesLoginItem } from './windows/desktop-integration'

/** How often to ask the OS whether the network is up (Electron's main process has no event). */
const ONLINE_CHECK_MS = 5_000

// Windows shows toasts only for an AppUserModelID it knows (the installer's shortcut carries it).
const modelId = appUserModelId(process.platform, app.isPackaged, process.execPath)
if (modelId) app.setAppUserModelId(modelId)

if (!app.requestSingleInstanceLock()) {
  // A second launch: the first instance is told (second-instance) and shows its window.
  app.quit()
} else {
  void app.whenReady().then(start).catch(startupFailed)
}

/** Anything that stops the start: say so in the user's words, then quit (no window would come). */
function startupFailed(error: unknown): void {
  const { title, content } = startupFailure(error, app.getPath('userData'))
  dialog.showErrorBox(title, content)
  app.exit(1)
}

async function start(): Promise<void> {
  // Our own menu, not Electron's default (Reload, Developer Tools) in the installed app.
  const menu = applicationMenuTemplate(process.platform, app.isPackaged)
  Menu.setApplicationMenu(menu ? Menu.buildFromTemplate(menu as MenuItemConstructorOptions[]) : null)
  // Set below, once the adapters it needs exist; their callbacks may fire before that.
  // eslint-disable-next-line prefer-const
  let core: AppCore | undefined
  const outDir = join(import.meta.dirname, '..')
  const dataDir = app.getPath('userData')
  const log = createLogger({ dir: logDirFor(dataDir) })
  const notebooks = createNotebookWindows((line) => log.info(line))
  // Quit closes the notebook windows first and asks if a page has unsaved work (leave-policy.ts).
  // With the setting on, Quit first offers to stop running instances (cost/quit-question.ts).
  const quit = handleQuit(
    notebooks,
    (line) => log.info(line),
    () => {
      const offer = core?.quitOffer() ?? null
      return core && offer ? askBeforeQuit(core, offer) : undefined
    }
  )

  const window = createMainWindowController({
    outDir,
    ...(process.env['ELECTRON_RENDERER_URL'] ? { devUrl: process.env['ELECTRON_RENDERER_URL'] } : {}),
    isQuitting: () => quit.isQuitting(),
    openExternal: (url) => void core?.handle('external.open', { url }, { clientId: 'main' }),
    onFocus: () => core?.onSystemEvent('focus'),
    onGone: (id) => core?.clientGone(String(id))
  })
  const notifier = createNotificationAdapter(
    (n) => core?.openInstance(n.instanceId),
    // macOS buttons: the cost guard's choices and a job's Open, answered as the window's buttons would be.
    (n, action) => {
      if (action === 'open-job') {
        if (n.jobId) void core?.handle('jobs.open', { jobId: n.jobId }, { clientId: 'main' })
        return
      }
      if (!n.instanceId) return
      const command = action === 'stop-now' ? 'instances.stop' : 'cost.keepRunning'
      void core?.handle(command, { instanceId: n.instanceId }, { clientId: 'main' })
    }
  )
  const tray = createTrayAdapter((itemId) => {
    void core?.handle('tray.activate', { itemId }, { clientId: 'main' }).then((result) => {
      // The tray has no place for errors: say it as a notification.
      // Not through the core's Platform, so neutralised here by the same rule (os-text.ts).
      if (!result.ok)
        notifier.show(osSafeNotification({ id: `tray-${Date.now()}`, kind: 'summary', title: 'Cloud Tray', body: result.error.message }))
    })
  })
  const platform: Platform = {
    showNotification: (n) => notifier.show(n),
    setTray: (model) => tray.set(model),
    openNotebook: (request) => notebooks.open(request),
    refreshNotebookCookies: (profileId, token) => notebooks.refreshCookies(profileId, token),
    async endNotebookSession(profileId) {
      const refused = await notebooks.closeAll(profileId)
      if ((await askToLeave('sign-out', refused)) === 'stay') return false
      await notebooks.endAccess(profileId)
      return true
    },
    openExternal: (url) => openInBrowser(url),
    openEditor: (url) => openEditorLink(url),
    setStartAtLogin: (enabled) => setStartAtLogin(enabled),
    showWindow: () => window.show(),
    quit: () => app.quit(),
    // Promise.resolve: Electron 45's types make these async; older builds answer at once.
    writeClipboard: (text) =>
      void Promise.resolve(clipboard.writeText(text)).catch((error: Error) => log.warn(`clipboard: ${error.message}`)),
    readClipboard: async () => await clipboard.readText()
  }

  const setStartAtLogin = (enabled: boolean): void => {
    // npm start and the e2e specs run Electron's own binary: the OS entry belongs to the installed app.
    if (!managesLoginItem(app.isPackaged)) {
      log.info(`start at login ${enabled ? 'on' : 'off'}: left to the installed app (this is not a packaged build)`)
      return
    }
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
    reach: sandboxReach()
  })
  // A notebook window belongs to one sign-in: when another account signs in (after an expiry),
  // or the session ends by any path, that account's windows and partition sign-in go too.
  let notebookOwner: NotebookOwner | undefined
  core.subscribe((event, payload) => {
    if (event !== 'session') return
    const access = notebookAccessAfter(notebookOwner, payload as Events['session'])
    notebookOwner = access.owner
    if (access.end !== undefined) void notebooks.endAccess(access.end)
  })
  bindIpc(
    core,
    ipcMain as unknown as IpcMainLike,
    () => window.contents(),
    () => ({
      webContentsIds: new Set(window.contents().map((c) => c.id)),
      ...window.page
    })
  )

  app.on('second-instance', () => window.show())
  // macOS: clicking the Dock icon brings the window back.
  app.on('activate', () => window.show())
  // Closing the window hides it; the app lives in the tray until Quit.
  app.on('window-all-closed', () => undefined)
  let stopped = false
  app.on('will-quit', (event) => {
    if (stopped || !core) return
    event.preventDefault()
    stopped = true
    notebooks.destroyAll()
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

  // The window and the tray come first: the Sandbox and a remembered session's keychain read
  // (which a locked keyring can hold up) follow while they are on screen.
  const openWindow = async (): Promise<void> => {
    // Waits only for the saved settings to be read.
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
  await Promise.all([core.start(), openWindow()])
}
