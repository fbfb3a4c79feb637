/**
 * Menu and MenuItem, and Electron's own default application menu: when an app has not set one by
 * `will-finish-launching`, Electron installs File, Edit, View (Reload, Force Reload, Toggle
 * Developer Tools, zoom, full screen), Window and Help (lib/browser/default-menu.ts). Menu roles
 * are expanded the way Electron expands them (lib/browser/api/menu-item-roles.ts), so a recording
 * shows what the user would see.
 */
import { EventEmitter } from 'node:events'
import type { MenuItemView } from '../protocol'
import { record, type Recordable } from './channel'

type Template = Record<string, unknown> & { submenu?: Template[] | StandInMenu; role?: string; click?: (...args: unknown[]) => void }

const isMac = process.platform === 'darwin'

/** The submenus Electron fills in for a menu role given without one. */
const ROLE_SUBMENUS: Record<string, string[]> = {
  appmenu: ['about', 'separator', 'services', 'separator', 'hide', 'hideOthers', 'unhide', 'separator', 'quit'],
  filemenu: [isMac ? 'close' : 'quit'],
  editmenu: isMac
    ? ['undo', 'redo', 'separator', 'cut', 'copy', 'paste', 'pasteAndMatchStyle', 'delete', 'selectAll']
    : ['undo', 'redo', 'separator', 'cut', 'copy', 'paste', 'delete', 'separator', 'selectAll'],
  viewmenu: ['reload', 'forceReload', 'toggleDevTools', 'separator', 'resetZoom', 'zoomIn', 'zoomOut', 'separator', 'togglefullscreen'],
  windowmenu: isMac ? ['minimize', 'zoom', 'separator', 'front'] : ['minimize', 'zoom', 'close']
}

export class StandInMenuItem {
  readonly label: string | undefined
  readonly role: string | undefined
  readonly type: string
  readonly accelerator: string | undefined
  enabled: boolean
  readonly submenu: StandInMenu | undefined
  readonly click: ((...args: unknown[]) => void) | undefined

  constructor(template: Template) {
    this.label = shownLabel(template['label'] as string | undefined)
    this.role = template.role
    this.accelerator = template['accelerator'] as string | undefined
    this.enabled = template['enabled'] !== false
    this.click = template.click
    const roleSubmenu = this.role ? ROLE_SUBMENUS[this.role.toLowerCase()] : undefined
    this.submenu =
      template.submenu instanceof StandInMenu
        ? template.submenu
        : Array.isArray(template.submenu)
          ? StandInMenu.buildFromTemplate(template.submenu)
          : roleSubmenu
            ? StandInMenu.buildFromTemplate(roleSubmenu.map((role) => (role === 'separator' ? { type: 'separator' } : { role })))
            : undefined
    this.type = (template['type'] as string | undefined) ?? (this.submenu ? 'submenu' : 'normal')
  }

  view(): MenuItemView {
    return {
      ...(this.label !== undefined ? { label: this.label } : {}),
      ...(this.role !== undefined ? { role: this.role } : {}),
      type: this.type,
      enabled: this.enabled,
      ...(this.accelerator !== undefined ? { accelerator: this.accelerator } : {}),
      ...(this.submenu ? { submenu: this.submenu.view() } : {})
    }
  }
}

/**
 * A label as the menu shows it: on Windows and Linux a single `&` marks a mnemonic and is not
 * shown, `&&` shows one `&` (Electron's MenuItem docs); macOS shows the text as it is.
 */
function shownLabel(label: string | undefined): string | undefined {
  if (label === undefined || isMac) return label
  return label
    .replace(/&&/g, '\u0000')
    .replace(/&/g, '')
    .replace(/\u0000/g, '&')
}

export class StandInMenu extends EventEmitter implements Recordable {
  items: StandInMenuItem[] = []

  static buildFromTemplate(template: Template[]): StandInMenu {
    const menu = new StandInMenu()
    menu.items = template.map((item) => new StandInMenuItem(item))
    return menu
  }

  static applicationMenu: StandInMenu | null = null
  static applicationMenuWasSet = false

  static setApplicationMenu(menu: StandInMenu | null): void {
    record('Menu.setApplicationMenu', undefined, [menu])
    StandInMenu.applicationMenu = menu
    StandInMenu.applicationMenuWasSet = true
  }

  static getApplicationMenu(): StandInMenu | null {
    return StandInMenu.applicationMenu
  }

  /** Electron's default menu, installed at will-finish-launching unless the app set one. */
  static installDefaultMenu(isPackaged: boolean): void {
    if (StandInMenu.applicationMenuWasSet) return
    const help: Template = {
      role: 'help',
      submenu: isPackaged
        ? []
        : [{ label: 'Learn More' }, { label: 'Documentation' }, { label: 'Community Discussions' }, { label: 'Search Issues' }]
    }
    const template: Template[] = [
      ...(isMac ? [{ role: 'appMenu' }] : []),
      { role: 'fileMenu' },
      { role: 'editMenu' },
      { role: 'viewMenu' },
      { role: 'windowMenu' },
      help
    ]
    StandInMenu.applicationMenu = StandInMenu.buildFromTemplate(template)
    record('electron.defaultApplicationMenu', undefined, [StandInMenu.applicationMenu])
  }

  append(item: StandInMenuItem): void {
    this.items.push(item)
  }

  popup(): void {
    record('Menu.popup', undefined, [this])
  }

  view(): MenuItemView[] {
    return this.items.map((item) => item.view())
  }

  recordAs(): unknown {
    return { menu: this.view() }
  }

  /** The item at a path of labels (or roles), e.g. ['Quit'] or ['trainer', 'Open notebook']. */
  find(path: readonly string[]): StandInMenuItem {
    const [head, ...rest] = path
    const item = this.items.find((candidate) => candidate.label === head || candidate.role === head)
    if (!item) throw new Error(`no menu item "${head}" among ${this.items.map((i) => i.label ?? i.role ?? i.type).join(', ')}`)
    if (rest.length === 0) return item
    if (!item.submenu) throw new Error(`menu item "${head}" has no submenu`)
    return item.submenu.find(rest)
  }
}
