import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { autostartEntry, desktopExecQuote, launcherSwitches, setLinuxAutostart } from './autostart'

describe('Linux autostart', () => {
  it.each([
    ['/opt/Cloud Tray/cloud-tray', '"/opt/Cloud Tray/cloud-tray"'],
    ['/home/a/$HOME/`x`/"q"\\', '"/home/a/\\$HOME/\\`x\\`/\\"q\\"\\\\"']
  ])('quotes %s for Exec', (path, expected) => {
    expect(desktopExecQuote(path)).toBe(expected)
  })

  it('writes and removes the desktop entry', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cloud-tray-xdg-'))
    try {
      await setLinuxAutostart(true, home, '/opt/Cloud Tray/cloud-tray')
      const file = join(home, 'autostart', 'cloud-tray.desktop')
      expect(await readFile(file, 'utf8')).toBe(autostartEntry('/opt/Cloud Tray/cloud-tray'))
      expect(await readFile(file, 'utf8')).toContain('Exec="/opt/Cloud Tray/cloud-tray" --hidden')
      await setLinuxAutostart(false, home, '/x')
      await expect(stat(file)).rejects.toThrow()
      await setLinuxAutostart(false, home, '/x') // already gone: fine
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })

  it("starts at login as the installed launcher starts it: the AppImage's --no-sandbox too, never a file or URL", () => {
    // electron-builder's AppImage desktop entry: `AppRun --no-sandbox %U`.
    const argv = [
      '/tmp/.mount_CloudT/cloud-tray',
      '--no-sandbox',
      '--ozone-platform=wayland',
      '--hidden',
      'https://x.example/',
      '--evil=$(rm)'
    ]
    expect(launcherSwitches(argv)).toEqual(['--no-sandbox', '--ozone-platform=wayland'])
    expect(autostartEntry('/home/me/Cloud Tray.AppImage', launcherSwitches(argv))).toContain(
      'Exec="/home/me/Cloud Tray.AppImage" --no-sandbox --ozone-platform=wayland --hidden'
    )
  })
})
