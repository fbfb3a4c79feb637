/**
 * Start at login on Linux. Electron's setLoginItemSettings works on macOS and Windows only;
 * Linux desktops start what `~/.config/autostart/*.desktop` lists (XDG Autostart spec).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export const AUTOSTART_FILE = 'cloud-tray.desktop'

/** Exec keys quote arguments with double quotes; `"`, `` ` ``, `$` and `\` are escaped. */
export function desktopExecQuote(path: string): string {
  return `"${path.replace(/(["`$\\])/g, '\\$1')}"`
}

export function autostartEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Cloud Tray',
    'Comment=Watch your GPU cloud instances from the tray',
    `Exec=${desktopExecQuote(executable)} --hidden`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    ''
  ].join('\n')
}

/** `configHome`: $XDG_CONFIG_HOME or ~/.config. `executable`: $APPIMAGE when run from an AppImage. */
export async function setLinuxAutostart(enabled: boolean, configHome: string, executable: string): Promise<void> {
  const dir = join(configHome, 'autostart')
  const file = join(dir, AUTOSTART_FILE)
  if (!enabled) {
    await rm(file, { force: true })
    return
  }
  await mkdir(dir, { recursive: true })
  await writeFile(file, autostartEntry(executable), { mode: 0o644 })
}
