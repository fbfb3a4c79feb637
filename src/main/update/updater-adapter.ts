/**
 * electron-updater as the update engine (update/update-service.ts decides when and whether).
 * The feed is the GitHub Releases of electron-builder.yml's `publish` (app-update.yml, written
 * into the installed app's resources by electron-builder). electron-updater downloads in the
 * background and verifies the file against the feed's sha512 before it says "downloaded"; on
 * Windows it also checks the installer's Authenticode publisher, and on macOS Squirrel.Mac checks
 * the code signature before installing.
 *
 * Linux deb/rpm installs need root (pkexec): they happen only when the user asks ("Restart to
 * update"), never silently at quit. macOS and Windows also install a downloaded update when the
 * user quits.
 */
import electronUpdater from 'electron-updater'
import type { EngineEvent, UpdateEngine } from './update-service'

export function createElectronUpdateEngine(log: (line: string) => void): UpdateEngine {
  const updater = electronUpdater.autoUpdater
  updater.logger = {
    info: (m: unknown) => log(`updater: ${String(m)}`),
    warn: (m: unknown) => log(`updater: ${String(m)}`),
    error: (m: unknown) => log(`updater: ${String(m)}`)
  }
  updater.autoDownload = true
  updater.autoInstallOnAppQuit = process.platform !== 'linux'
  return {
    async check(channel) {
      // A beta feed (beta.yml / GitHub pre-releases) on the beta channel; never a downgrade either way.
      updater.channel = channel === 'beta' ? 'beta' : 'latest'
      updater.allowPrerelease = channel === 'beta'
      updater.allowDowngrade = false
      const result = await updater.checkForUpdates()
      // null: electron-updater is not active for this kind of install (not an AppImage, deb, rpm,
      // dmg/zip or NSIS install): said once as a failed check, not left "checking" for ever.
      if (!result) throw new Error('this kind of install does not update itself; download new versions from the releases page')
      // The background download's failure comes as an `error` event too; unhandled, its promise
      // would reach Electron's uncaught-exception box.
      void result?.downloadPromise?.catch(() => undefined)
    },
    installAndRestart() {
      updater.quitAndInstall(false, true)
    },
    listen(listener: (event: EngineEvent) => void) {
      updater.on('checking-for-update', () => listener({ type: 'checking' }))
      updater.on('update-available', (info) => listener({ type: 'available', version: info.version }))
      updater.on('update-not-available', () => listener({ type: 'not-available' }))
      updater.on('download-progress', (progress) => listener({ type: 'progress', percent: progress.percent }))
      updater.on('update-downloaded', (info) => listener({ type: 'downloaded', version: info.version }))
      updater.on('error', (error) => listener({ type: 'error', message: error.message }))
    }
  }
}
