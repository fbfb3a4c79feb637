/**
 * Start at login on Linux. Electron's setLoginItemSettings works on macOS and Windows only;
 * Linux desktops start what `~/.config/autostart/*.desktop` lists (XDG Autostart spec).
 */
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../../shared/node/atomic-write'

export const AUTOSTART_FILE = 'cloud-tray.desktop'

/** Exec keys quote arguments with double quotes; `"`, `` ` ``, `$` and `\` are escaped. */
export function desktopExecQuote(path: string): string {
  return `"${path.replace(/(["`$\\])/g, '\\$1')}"`
}

/**
 * The switches the app was launched with (`--no-sandbox`, which the AppImage's own desktop entry
 * passes where Ubuntu restricts user namespaces; `--ozone-platform=…`), so the entry at login
 * starts it exactly as the installed launcher does. Not `--hidden` (added for login), not
 * positional arguments (files or URLs the launcher was given).
 */
export function launcherSwitches(argv: readonly string[]): string[] {
  return argv.slice(1).filter((arg) => /^--[a-z0-9][a-z0-9-]*(=[^\s"'`$\\]*)?$/i.test(arg) && arg !== '--hidden')
}

export function autostartEntry(executable: string, switches: readonly string[] = []): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Cloud Tray',
    'Comment=Watch your GPU cloud instances from the tray',
    `Exec=${[desktopExecQuote(executable), ...switches, '--hidden'].join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    ''
  ].join('\n')
}

/**
 * `configHome`: $XDG_CONFIG_HOME or ~/.config. `executable`: $APPIMAGE when run from an AppImage.
 * `switches`: launcherSwitches(process.argv).
 */
export async function setLinuxAutostart(
  enabled: boolean,
  configHome: string,
  executable: string,
  switches: readonly string[] = []
): Promise<void> {
  const dir = join(configHome, 'autostart')
  const file = join(dir, AUTOSTART_FILE)
  if (!enabled) {
    await rm(file, { force: true })
    return
  }
  await mkdir(dir, { recursive: true })
  // A half-written entry would be read at the next login as a broken one: whole or not at all.
  await writeFileAtomic(file, autostartEntry(executable, switches), 0o644)
}
