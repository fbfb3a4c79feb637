/**
 * The Electron Tray: renders a TrayModel (tray-model.ts) as the icon, tooltip and menu, and
 * reports item clicks by id. Rebuilt only when the model changes (the core deduplicates).
 */
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions, type NativeImage } from 'electron'
import type { TrayIcon, TrayMenuItem, TrayModel } from '../../shared/contract'
import { TRAY_ICON_PNGS } from './tray-icons.generated'
import { trayClickOpensWindow } from '../windows/desktop-integration'

export interface TrayAdapter {
  set(model: TrayModel): void
  destroy(): void
}

/** The shell's own items (desktop-integration.ts trayShellItems), placed before the model's last item (Quit). */
export interface ShellTrayItems {
  items: { id: string; label: string }[]
  onClick(id: string): void
}

export function createTrayAdapter(onActivate: (itemId: string) => void, shell?: ShellTrayItems): TrayAdapter {
  const isMac = process.platform === 'darwin'
  const images = new Map<TrayIcon, NativeImage>()
  const image = (icon: TrayIcon): NativeImage => {
    let img = images.get(icon)
    if (!img) {
      const pngs = TRAY_ICON_PNGS[icon][isMac ? 'template' : 'colour']
      img = nativeImage.createEmpty()
      img.addRepresentation({ scaleFactor: 1, buffer: Buffer.from(pngs.x1, 'base64') })
      img.addRepresentation({ scaleFactor: 2, buffer: Buffer.from(pngs.x2, 'base64') })
      // The macOS menu bar tints template images for light and dark mode.
      if (isMac) img.setTemplateImage(true)
      images.set(icon, img)
    }
    return img
  }
  const tray = new Tray(image('idle'))
  // A click on the icon brings the window on Windows and Linux; the menu stays on right-click
  // (desktop-integration.ts). macOS opens the menu, which has "Open Cloud Tray".
  if (trayClickOpensWindow(process.platform)) tray.on('click', () => onActivate('open-window'))
  const toTemplate = (items: readonly TrayMenuItem[]): MenuItemConstructorOptions[] =>
    items.map((item) =>
      item.type === 'separator'
        ? { type: 'separator' }
        : item.type === 'submenu'
          ? { label: item.label, enabled: item.enabled, submenu: toTemplate(item.submenu ?? []) }
          : { label: item.label, enabled: item.enabled, click: () => onActivate(item.id) }
    )
  return {
    set(model) {
      tray.setImage(image(model.icon))
      tray.setToolTip(model.tooltip)
      // The menu bar's text beside the icon (the burn rate, when the user asks for it) is macOS's alone.
      if (isMac) tray.setTitle(model.title ?? '')
      const items = toTemplate(model.items)
      const own: MenuItemConstructorOptions[] = (shell?.items ?? []).map((item) => ({
        label: item.label,
        click: () => shell!.onClick(item.id)
      }))
      if (own.length > 0) items.splice(Math.max(0, items.length - 1), 0, ...own, { type: 'separator' })
      tray.setContextMenu(Menu.buildFromTemplate(items))
    },
    destroy: () => tray.destroy()
  }
}
