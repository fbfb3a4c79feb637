/**
 * Sets Electron's application menu from its template (desktop-integration.ts, data), giving the
 * app's own items (by `id`) their actions. One place, so the menu made at start and the one a
 * desktop without tray icons gets (no-tray-adapter.ts) act alike.
 */
import { Menu, type MenuItemConstructorOptions } from 'electron'
import { installCommandLineTool } from '../cli-install/cli-install-adapter'
import { INSTALL_CLI_ITEM, type MenuTemplateItem } from './desktop-integration'

/** What each of the app's own items does (the shell's items in the tray menu, too: tray-adapter.ts). */
export const OWN_ITEM_ACTIONS: Readonly<Record<string, () => void>> = {
  [INSTALL_CLI_ITEM]: () => void installCommandLineTool()
}

function withActions(items: readonly MenuTemplateItem[]): MenuItemConstructorOptions[] {
  return items.map((item) => {
    const action = item.id === undefined ? undefined : OWN_ITEM_ACTIONS[item.id]
    return {
      ...item,
      ...(item.submenu ? { submenu: withActions(item.submenu) } : {}),
      ...(action ? { click: action } : {})
    }
  }) as MenuItemConstructorOptions[]
}

export function setAppMenu(template: readonly MenuTemplateItem[] | null): void {
  Menu.setApplicationMenu(template ? Menu.buildFromTemplate(withActions(template)) : null)
}
