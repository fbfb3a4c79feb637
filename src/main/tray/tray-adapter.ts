/**
 * The Electron Tray: renders a TrayModel (tray-model.ts) as the icon, tooltip and menu, and
 * reports item clicks by id. Rebuilt only when the model changes (the core deduplicates).
 */
import { join } from 'node:path'
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions, type NativeImage } from 'electron'
import type { TrayIcon, TrayMenuItem, TrayModel } from '../../shared/contract'
import { TRAY_ICON_PNGS } from './tray-icons.generated'
import { trayClickOpensWindow } from '../windows/desktop-integration'
import { MenuWhileOpen, menuLabel } from './menu-text'

export interface TrayAdapter {
  set(model: TrayModel): void
  destroy(): void
}

/** The shell's own items (desktop-integration.ts trayShellItems), placed before the model's last item (Quit). */
export interface ShellTrayItems {
  items: { id: string; label: string }[]
  onClick(id: string): void
}

export interface TrayAdapterOptions {
  /**
   * On Windows, where the tray-<state>.ico files are (resources/tray, shipped as extraResources):
   * Electron's Tray docs recommend ICO there, whose entries (16–48 px) fit every display scale.
   * Elsewhere, or when a file is missing, the PNG pair.
   */
  icoDir?: string
  shell?: ShellTrayItems
}

export function createTrayAdapter(onActivate: (itemId: string) => void, options: TrayAdapterOptions = {}): TrayAdapter {
  const { icoDir, shell } = options
  const isMac = process.platform === 'darwin'
  const images = new Map<TrayIcon, NativeImage>()
  const image = (icon: TrayIcon): NativeImage => {
    let img = images.get(icon)
    if (!img && process.platform === 'win32' && icoDir) {
      const ico = nativeImage.createFromPath(join(icoDir, `tray-${icon}.ico`))
      if (!ico.isEmpty()) images.set(icon, (img = ico))
    }
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
  const label = (text: string): string => menuLabel(text, process.platform)
  const toTemplate = (items: readonly TrayMenuItem[]): MenuItemConstructorOptions[] =>
    items.map((item) =>
      item.type === 'separator'
        ? { type: 'separator' }
        : item.type === 'submenu'
          ? { label: label(item.label), enabled: item.enabled, submenu: toTemplate(item.submenu ?? []) }
          : { label: label(item.label), enabled: item.enabled, click: () => onActivate(item.id) }
    )
  const own: MenuItemConstructorOptions[] = (shell?.items ?? []).map((item) => ({
    label: label(item.label),
    click: () => shell!.onClick(item.id)
  }))
  const menus = new MenuWhileOpen<readonly TrayMenuItem[]>((items) => {
    const template = toTemplate(items)
    if (own.length > 0) template.splice(Math.max(0, template.length - 1), 0, ...own, { type: 'separator' })
    const menu = Menu.buildFromTemplate(template)
    menu.on('menu-will-show', () => menus.opened())
    menu.on('menu-will-close', () => menus.closed())
    tray.setContextMenu(menu)
  })
  return {
    set(model) {
      tray.setImage(image(model.icon))
      tray.setToolTip(model.tooltip)
      // The menu bar's text beside the icon (the burn rate, when the user asks for it) is macOS's alone.
      if (isMac) tray.setTitle(model.title ?? '')
      menus.set(model.items)
    },
    destroy: () => tray.destroy()
  }
}
