/**
 * Whether the desktop shows tray icons at all. Electron's Tray on Linux is a StatusNotifierItem,
 * which appears only where a StatusNotifier host runs (KDE, Ubuntu's GNOME, most panels); vanilla
 * GNOME (Fedora, Debian, Arch) has none without the AppIndicator extension, and there closing
 * the window to the tray would hide the app for good, with nothing left to Quit. So on Linux the
 * session bus is asked whether `org.kde.StatusNotifierWatcher` has an owner (what Chromium
 * itself checks before it registers an item); macOS and Windows always have their tray.
 */
import { nameHasOwner } from './dbus-call'

export const STATUS_NOTIFIER_WATCHER = 'org.kde.StatusNotifierWatcher'

export async function trayIconsShown(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (platform !== 'linux') return true
  // No bus, or no answer: no StatusNotifier host can be there either; keeping the window is the safe side.
  return nameHasOwner(env['DBUS_SESSION_BUS_ADDRESS'], STATUS_NOTIFIER_WATCHER).catch(() => false)
}

/** What the user is told, once, the first time closing the window minimizes it instead. */
export const NO_TRAY_MESSAGE = {
  message: 'Cloud Tray keeps running, minimized',
  detail:
    'Your desktop shows no tray icons, so closing the window minimizes it instead of hiding it in the tray. ' +
    'On GNOME, the "AppIndicator and KStatusNotifierItem Support" extension adds the tray (on Fedora: ' +
    'gnome-shell-extension-appindicator; on Debian: gnome-shell-extension-appindicator), then Cloud Tray appears there. ' +
    'To quit, use File → Quit in the window, or Ctrl+Q.',
  buttons: ['OK']
} as const
