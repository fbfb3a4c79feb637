/**
 * Wiring only: single-instance lock, app lifecycle, the Platform built from the Electron
 * adapters, createAppCore, and the IPC binding. Everything with logic lives in a core file.
 */
import { homedir } from 'node:os'
import { join } from 'node:path'
import { app, clipboard, dialog, ipcMain, net, powerMonitor } from 'electron'
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
import { openFileWithDialog, saveFileWithDialog } from './windows/file-dialog-adapter'
import { createMainWindowController, openEditorLink, openInBrowser } from './windows/main-window-adapter'
import { handleQuit } from './windows/quit-adapter'
import { askBeforeQuit } from './windows/quit-offer-adapter'
import { askToLeave } from './windows/leave-dialog-adapter'
import { useAppWindowForDialogs } from './windows/dialog-parent-adapter'
import { notebookAccessAfter, type NotebookOwner } from './notebook/notebook-access'
import { launcherSwitches, setLinuxAutostart } from './windows/autostart'
import { osSafeNotification } from './os-text'
import { startupFailure } from './startup-failure'
import { installProcessGuard } from './process-guard'
import { systemClock } from '../shared/clock'
import { boundedQuit } from './windows/quit-bound'
import {
  TOAST_ACTIVATOR_CLSID,
  appUserModelId,
  applicationMenuTemplate,
  managesLoginItem,
  trayShellItems
} from './windows/desktop-integration'
import { OWN_ITEM_ACTIONS, setAppMenu } from './windows/app-menu-adapter'
import { startCliSocket, type CliSocketServer } from './cli-socket/cli-socket-server'
import { currentCliSocketPlace } from '../shared/node/cli-socket/place'
import { registerAppScheme } from './windows/app-protocol-adapter'
import { chromiumNetworkRoute } from './network/proxy-adapter'
import { answerProxyLogins } from './notebook/proxy-login-adapter'
import { trayIconsShown } from './windows/tray-host'
import { explainNoTrayOnce, useNoTrayMenu } from './windows/no-tray-adapter'
import { createElectronUpdateEngine } from './update/updater-adapter'
import { devRendererUrl } from './windows/dev-renderer'
import { disableChromiumFeatures } from './windows/chromium-features'
import { pinMainHeapGrowth } from './heap-growth'
import { createKeepAwake } from './power/power-save-adapter'
import { followThemeSetting } from './windows/native-theme-adapter'
import { runsUnderWayland, secondLaunchHandler } from './windows/second-launch'

// A flood through an SSH session must not run a full collection every few dozen ms (heap-growth.ts).
pinMainHeapGrowth()

/** How often to ask the OS whether the network is up (Electron's main process has no event). */
const ONLINE_CHECK_MS = 5_000

// Windows shows toasts only for an AppUserModelID it knows (the installer's shortcut carries it);
// a fixed toast activator CLSID, set before it, lets an Action Center click reach a later run.
const modelId = appUserModelId(process.platform, app.isPackaged, process.execPath)
if (modelId) {
  app.setToastActivatorCLSID(TOAST_ACTIVATOR_CLSID)
  app.setAppUserModelId(modelId)
}

// The page's app:// scheme is privileged (standard, secure) only if registered before ready.
registerAppScheme()
// Chromium reads its features when it starts: a key's echo must not wait for a frame (chromium-features.ts).
disableChromiumFeatures(app.commandLine)

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
  // macOS answers this from the launch's Apple event, which is there only now: read it first.
  const openedAtLogin = app.getLoginItemSettings().wasOpenedAtLogin === true
  // Our own menu, not Electron's default (Reload, Developer Tools) in the installed app.
  const menu = applicationMenuTemplate(process.platform, app.isPackaged)
  setAppMenu(menu)
  // Set below, once the adapters it needs exist; their callbacks may fire before that.
  // eslint-disable-next-line prefer-const
  let core: AppCore | undefined
  const outDir = join(import.meta.dirname, '..')
  const dataDir = app.getPath('userData')
  // Vanilla GNOME shows no tray icons: then the window keeps a Quit and closing minimizes it.
  const trayShown = (): Promise<boolean> => trayIconsShown(process.platform, process.env)
  const trayAtStart = trayShown()
  void trayAtStart.then((shown) => shown || useNoTrayMenu(app.isPackaged))
  const log = createLogger({ dir: logDirFor(dataDir) })
  // The last net (process-guard.ts says what goes on and why that is safe): a failed promise nobody
  // awaited, or a connection's error, is logged and the app goes on; anything else ends it, once
  // logged, and starts it again (the session and the cost guard's countdowns resume from disk)
  // unless it has only just started, when it says so instead of starting again and again.
  installProcessGuard({
    log,
    fatal() {
      log.close()
      if (process.uptime() > 60) {
        app.relaunch()
        app.exit(70)
        return
      }
      dialog.showErrorBox(
        'Cloud Tray',
        'Cloud Tray hit an unexpected error and has to close. Its log (in Settings → Show logs) says what happened.'
      )
      app.exit(70)
    }
  })
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
    ...devRendererUrl(app.isPackaged, process.env),
    isQuitting: () => quit.isQuitting(),
    trayShown,
    minimizedForNoTray: explainNoTrayOnce(dataDir),
    openExternal: (url) => void core?.handle('external.open', { url }, { clientId: 'main' }),
    onFocus: () => core?.onSystemEvent('focus'),
    onGone: (id) => core?.clientGone(String(id))
  })
  useAppWindowForDialogs(() => window.forDialog())
  // A click, and the buttons (macOS, Windows): answered as the window's buttons would be (commands/notification-actions.ts).
  const notifier = createNotificationAdapter(
    (n) => core?.notificationActivated(n),
    (n, action) => core?.notificationActivated(n, action)
  )
  const trayIcoDir = app.isPackaged ? join(process.resourcesPath, 'tray') : join(app.getAppPath(), 'resources', 'tray')
  // The shell's own items (Windows: Install Command Line Tool…) act as the app menu's would.
  const trayShell = { items: trayShellItems(process.platform, app.isPackaged), onClick: (id: string) => OWN_ITEM_ACTIONS[id]?.() }
  const tray = createTrayAdapter(
    (itemId) => {
      void core?.handle('tray.activate', { itemId }, { clientId: 'main' }).then((result) => {
        // The tray has no place for errors: say it as a notification.
        // Not through the core's Platform, so neutralised here by the same rule (os-text.ts).
        if (!result.ok)
          notifier.show(osSafeNotification({ id: `tray-${Date.now()}`, kind: 'summary', title: 'Cloud Tray', body: result.error.message }))
      })
    },
    { icoDir: trayIcoDir, shell: trayShell }
  )
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
    readClipboard: async () => await clipboard.readText(),
    saveFile: (file) => saveFileWithDialog(file),
    openFile: (request) => openFileWithDialog(request),
    // A download's folder, picked in main: the renderer's File System Access picker cancels
    // silently on a folder the browser blocks (electron/electron#42459); here any folder the user
    // can write works, and one they cannot says so (ssh/sftp/disk-sink.ts).
    async pickFolder() {
      const parent = window.forDialog()
      const options = {
        title: 'Download into…',
        buttonLabel: 'Download here',
        properties: ['openDirectory', 'createDirectory'] as ('openDirectory' | 'createDirectory')[]
      }
      const picked = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options)
      return picked.canceled ? undefined : picked.filePaths[0]
    },
    // No idle sleep from the first upload or download to the end of the last (power/keep-awake.ts).
    keepAwake: createKeepAwake((line) => log.info(line))
  }

  const setStartAtLogin = (enabled: boolean): void => {
    // npm start and the e2e specs run Electron's own binary: the OS entry belongs to the installed app.
    if (!managesLoginItem(app.isPackaged)) {
      log.info(`start at login ${enabled ? 'on' : 'off'}: left to the installed app (this is not a packaged build)`)
      return
    }
    if (process.platform === 'linux') {
      const configHome = process.env['XDG_CONFIG_HOME'] || join(homedir(), '.config')
      // Launched at login exactly as the installed launcher launches it (its switches too).
      void setLinuxAutostart(enabled, configHome, process.env['APPIMAGE'] || process.execPath, launcherSwitches(process.argv)).catch(
        () => undefined
      )
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
    // The API client goes through the proxy Chromium would use, trusting the OS's roots too.
    network: chromiumNetworkRoute((line) => log.info(line)),
    // Only the installed app updates itself (npm start and the e2e specs run Electron's own binary).
    ...(app.isPackaged ? { updater: createElectronUpdateEngine((line) => log.info(line)) } : {}),
    // The Sandbox's instances are reachable for real: SSH, the notebook page, forwarded ports.
    reach: sandboxReach()
  })
  // Native dialogs, menus and title bars in the theme picked in Settings, as each change is saved.
  const followTheme = followThemeSetting(core)
  // A notebook window behind a proxy that wants a user name and password gets the ones the API
  // client was given; without them the window comes forward to ask (notebook/proxy-login.ts).
  answerProxyLogins(app, {
    proxyCredential: (hostPort) => core.proxyCredential(hostPort),
    proxyChallenged: (proxyUri, target, refusedGiven) => {
      core.proxyChallenged(proxyUri, target, refusedGiven)
      window.show()
    }
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

  // cloud-tray (the command line) reaches this app over its local socket (src/main/cli-socket).
  let cliSocket: CliSocketServer | undefined
  startCliSocket({ core, version: app.getVersion(), place: currentCliSocketPlace(homedir()), log }).then(
    (served) => (cliSocket = served),
    (error: Error) => log.warn(`the command line is off: ${error.message}`)
  )

  // A second launch shows the window; a Wayland compositor may refuse it the focus, and then a
  // notification says where the app is (windows/second-launch.ts).
  app.on(
    'second-instance',
    secondLaunchHandler({
      wayland: runsUnderWayland(process.env),
      clock: systemClock(),
      show: () => window.show(),
      isFocused: () => window.isFocused(),
      trayShown,
      tell: (notice) => notifier.show(osSafeNotification(notice))
    })
  )
  // macOS: clicking the Dock icon brings the window back.
  app.on('activate', () => window.show())
  // Closing the window hides it; the app lives in the tray until Quit.
  app.on('window-all-closed', () => undefined)
  // Clean-up before leaving: notebooks closed, connections ended, files flushed; bounded, so a
  // hang never leaves a windowless process with a live tray (windows/quit-bound.ts).
  let stopped = false
  const cleanUp = (then: () => void): void => {
    if (stopped || !core) return then()
    stopped = true
    notebooks.destroyAll()
    const running = core
    boundedQuit(
      async () => {
        await Promise.all([running.stop(), cliSocket?.close()])
      },
      (timedOut) => {
        if (timedOut) log.warn('quit: clean-up did not finish in time; leaving anyway')
        log.close()
        then()
      },
      systemClock()
    )
  }
  app.on('will-quit', (event) => {
    if (stopped || !core) return
    event.preventDefault()
    cleanUp(() => app.quit())
  })
  // Windows shutdown or log-off: no before-quit or will-quit comes, only the window's session-end.
  window.onSessionEnd(() => cleanUp(() => app.exit(0)))
  // Linux and macOS shutdown: delay it for the clean-up (Electron tries), then leave.
  // (Electron passes an event whose preventDefault delays it; its types leave the argument out.)
  powerMonitor.on('shutdown', (...args: unknown[]) => {
    ;(args[0] as Electron.Event | undefined)?.preventDefault()
    cleanUp(() => app.quit())
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
      // The native UI's theme is the user's from the window's first frame.
      followTheme(settings.value)
      // The OS setting follows ours, so a change made while the app was not running is applied.
      platform.setStartAtLogin(settings.value.startAtLogin)
      // Started at login (`--hidden`, or macOS's flag): the window opens only if the user asked
      // for it; a launch by hand always shows it, so the app never seems not to start.
      const atLogin = process.argv.includes('--hidden') || openedAtLogin
      // Without a tray a hidden start would leave nothing on screen to bring the app back.
      if (!atLogin || settings.value.openWindowAtStart || !(await trayAtStart)) window.show()
    } else {
      window.show()
    }
  }
  await Promise.all([core.start(), openWindow()])
}
